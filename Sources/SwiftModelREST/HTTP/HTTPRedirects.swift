import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URL's origin — scheme, host and port, as browsers compare them: the one place the
/// adapter's credentials (bearer token, configured headers, ``RESTConfiguration/configureRequest``)
/// may go.
struct RESTOrigin: Sendable, Hashable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? Self.defaultPort(scheme)
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// Whether `url` has this origin.
    func contains(_ url: URL?) -> Bool { url.map { RESTOrigin($0) == self } ?? false }

    var description: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") }
}

extension HTTPTransport {
    /// `request` with only what describes its body (`Accept`, `Content-Type`, the body):
    /// no `Authorization`, no configured or per-call headers. The one form in which a
    /// request leaves the base URL's origin.
    static func withoutCredentials(_ request: URLRequest) -> URLRequest {
        var bare = URLRequest(url: request.url ?? URL(fileURLWithPath: "/"))
        bare.httpMethod = request.httpMethod
        for name in ["Accept", "Content-Type"] {
            if let value = request.value(forHTTPHeaderField: name) { bare.setValue(value, forHTTPHeaderField: name) }
        }
        bare.httpBody = request.httpBody
        return bare
    }

    /// The request to send next when `response` is a redirect, or nil when it is not one.
    ///
    /// 301, 302, 307 and 308 repeat the method and body: a write is never turned into a
    /// `GET` whose answer would read as the write's (Django answers a slash-less `PATCH`
    /// with a 301; RFC 9110 lets a client change the method only for `POST` on 301/302,
    /// and the adapter keeps it there too, so a create is never lost). 303 See Other says
    /// the write was done and its answer is elsewhere: it turns into a `GET`. A target on
    /// another origin is refused (``RESTError/Kind/crossOrigin``) unless
    /// ``RESTConfiguration/crossOrigin`` is ``RESTCrossOriginPolicy/followWithoutCredentials``,
    /// in which case the request goes there without the adapter's headers.
    func redirect(_ response: RESTResponse, from request: URLRequest, count: inout Int, model: String?) throws -> URLRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status) else { return nil }
        let method = request.httpMethod ?? "GET"
        guard let location = response.header("Location"), let target = URL(string: location, relativeTo: response.url)?.absoluteURL,
            ["http", "https"].contains(target.scheme?.lowercased() ?? "")
        else {
            throw RESTError(
                .redirect, method: method, url: response.url, status: response.status, model: model,
                message: "a redirect without a usable http(s) Location (\(response.header("Location") ?? "none"))")
        }
        count += 1
        guard count <= configuration.maxRedirects else {
            throw RESTError(
                .redirect, method: method, url: response.url, status: response.status, model: model,
                message: "more than \(configuration.maxRedirects) redirects (RESTConfiguration.maxRedirects)")
        }
        let crossing = !origin.contains(target)
        if crossing, configuration.crossOrigin == .refuse {
            throw RESTError(
                .crossOrigin, method: method, url: response.url, status: response.status, model: model,
                message: "redirected to \(RESTOrigin(target)), outside \(origin); not followed, so no credentials left it "
                    + "(RESTConfiguration.crossOrigin)")
        }
        var next = crossing ? Self.withoutCredentials(request) : request
        next.url = target
        if response.status == 303, method != "GET", method != "HEAD" {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Idempotency-Key")
        }
        return next
    }
}
