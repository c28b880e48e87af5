import HTTPTypes
import Hummingbird
import GlimpseAPITypes
import Rendering

/// `GET /`: the search page (``SearchPage``, compiled into the binary), served with its
/// Content-Security-Policy: its one script runs by a nonce fresh for every response (no
/// `'unsafe-inline'` scripts), and nothing comes from another origin.
struct PageRoutes {
    func add(to router: Router<GlimpseRequestContext>) {
        router.get("/") { _, _ in
            let nonce = SearchPage.makeNonce()
            let headers: HTTPFields = [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: SearchPage.contentSecurityPolicy(nonce: nonce),
                .cacheControl: "no-store",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ]
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: SearchPage.html(nonce: nonce))))
        }
    }
}

extension GlimpseAPIHandler {
    /// Never called: `GET /` is a plain route (``PageRoutes``).
    func searchPage(_ input: Operations.SearchPage.Input) async throws -> Operations.SearchPage.Output {
        throw Self.servedByPlainRoute("GET /")
    }
}
