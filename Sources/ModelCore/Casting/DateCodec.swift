import Foundation

/// Parses and formats the date strings the casting rules accept.
///
/// Hand-written rather than `DateFormatter`/`ISO8601DateFormatter`: it is thread-safe,
/// allocation-free, keeps every fractional digit, and accepts exactly the documented forms:
///
/// - `2012-04-23` (UTC midnight)
/// - `2012-04-23T18:25:43Z`, `2012-04-23T18:25:43.511Z`, `2012-04-23T18:25:43+02:00`,
///   `2012-04-23T18:25:43` (no zone: UTC)
/// - `2012-04-23 18:25:43 +0000` (`yyyy-MM-dd HH:mm:ss Z`, as `Date.description` prints)
package enum DateCodec {
    /// Parses one of the accepted forms, or returns nil.
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes s: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= s.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = s[i + k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        if i == s.count { return Date(timeIntervalSince1970: Double(days) * 86_400) }

        // Time part: 'T' or ' ' separator.
        guard i < s.count, s[i] == 84 || s[i] == 32 || s[i] == 116 else { return nil }
        let spaced = s[i] == 32
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2), expect(58), let second = digits(2),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if i < s.count, s[i] == 46 {  // '.'
            i += 1
            var scale = 0.1
            var any = false
            while i < s.count, s[i] >= 48, s[i] <= 57 {
                fraction += Double(s[i] - 48) * scale
                scale /= 10
                i += 1
                any = true
            }
            guard any else { return nil }
        }
        if spaced, i < s.count, s[i] == 32 { i += 1 }
        var offset = 0
        if i < s.count {
            let c = s[i]
            if c == 90 || c == 122 {  // Z
                i += 1
            } else if c == 43 || c == 45 {  // + or -
                i += 1
                guard let oh = digits(2), oh < 24 else { return nil }
                _ = expect(58)
                guard let om = digits(2), om < 60 else { return nil }
                offset = (oh * 3600 + om * 60) * (c == 45 ? -1 : 1)
            } else {
                return nil
            }
        }
        guard i == s.count else { return nil }
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(whole) + fraction)
    }

    /// ISO 8601 with at least millisecond digits (`2012-04-23T18:25:43.000Z`): what JSON
    /// documents and `ModelValue`'s `Encodable` write.
    package static func iso8601Milliseconds(_ date: Date) -> String { iso8601(date, minimumFraction: 3) }

    /// Formats as ISO 8601 in UTC: `2012-04-23T18:25:43Z`, or with up to six fractional
    /// digits when the date has a fraction (`2012-04-23T18:25:43.511Z`).
    ///
    /// Total: a date outside ``ModelValue/dateRange`` (which nothing stores; callers that
    /// write documents check first) renders as `"<date 1e+300 s since 1970>"`, never traps.
    package static func iso8601String(_ date: Date) -> String { iso8601(date, minimumFraction: 0) }

    /// ISO 8601 in UTC written byte by byte into the string's own storage (one allocation:
    /// a server formats two dates per record it sends); fractional digits trimmed of
    /// trailing zeros down to three, and at least `minimumFraction` of them.
    private static func iso8601(_ date: Date, minimumFraction: Int) -> String {
        let t = date.timeIntervalSince1970
        guard ModelValue.isStorable(date) else { return "<date \(t) s since 1970>" }
        var whole = t.rounded(.down)
        var micros = Int(((t - whole) * 1_000_000).rounded())
        if micros == 1_000_000 { whole += 1; micros = 0 }
        let seconds = Int(whole)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = civilFromDays(days)
        var fraction = 0
        if micros > 0 {
            fraction = 6
            while fraction > 3, micros % 10 == 0 {
                micros /= 10
                fraction -= 1
            }
        } else if minimumFraction > 0 {
            fraction = minimumFraction
        }
        return String(unsafeUninitializedCapacity: 40) { buffer in
            var at = 0
            func put(_ byte: UInt8) {
                buffer[at] = byte
                at += 1
            }
            func digits(_ value: Int, _ width: Int) {
                var v = value
                var count = 1
                while v >= 10 {
                    v /= 10
                    count += 1
                }
                count = max(count, width)
                v = value
                for k in stride(from: at + count - 1, through: at, by: -1) {
                    buffer[k] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
                at += count
            }
            if y < 0 { put(UInt8(ascii: "-")) }
            digits(abs(y), 4)
            put(UInt8(ascii: "-"))
            digits(m, 2)
            put(UInt8(ascii: "-"))
            digits(d, 2)
            put(UInt8(ascii: "T"))
            digits(secondOfDay / 3600, 2)
            put(UInt8(ascii: ":"))
            digits(secondOfDay / 60 % 60, 2)
            put(UInt8(ascii: ":"))
            digits(secondOfDay % 60, 2)
            if fraction > 0 {
                put(UInt8(ascii: "."))
                digits(micros, fraction)
            }
            put(UInt8(ascii: "Z"))
            return at
        }
    }

    /// `yyyy-MM-dd HH:mm:ss.SSS` in UTC, always with three fractional digits (rounded to
    /// the millisecond), so stored texts sort as the dates do: SQLite's and GRDB's form.
    /// A date outside ``ModelValue/dateRange`` renders as ``iso8601String(_:)`` does.
    package static func sqlText(_ date: Date) -> String {
        guard ModelValue.isStorable(date) else { return iso8601String(date) }
        let totalMillis = Int((date.timeIntervalSince1970 * 1000).rounded())
        let millis = ((totalMillis % 1000) + 1000) % 1000
        let seconds = (totalMillis - millis) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = civilFromDays(days)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + " " + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(millis, 3)
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(abs(v))
        return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }

    private static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
