import Foundation

/// Instants the date-storage tests of every SQL adapter write and read back: a fraction
/// of a second, before 1970, a whole second, and the last millisecond of year 9999.
public enum DateStorageSamples {
    public static let instants: [Date] = [
        Date(timeIntervalSince1970: 1_335_205_543.511), Date(timeIntervalSince1970: -86_400.25),
        Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 253_402_300_799.999),
    ]
}
