import HTTPTypes
import Hummingbird
import Rendering

/// `GET /`: the search page (``SearchPage``, compiled into the binary), served with its
/// Content-Security-Policy so the browser refuses anything from another origin.
struct PageRoutes {
    func add(to router: Router<GlimpseRequestContext>) {
        let page = ByteBuffer(string: SearchPage.html)
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: SearchPage.contentSecurityPolicy,
            .cacheControl: "no-cache",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
        router.get("/") { _, _ in Response(status: .ok, headers: headers, body: .init(byteBuffer: page)) }
    }
}
