import Hummingbird

/// Reads an operation's JSON body under its own size limit (into
/// ``GlimpseRequestContext/collectedBody``, which ``OperationRegistrar`` hands on), at the pace of the
/// ``UploadPolicy`` and within the server's ``BodyBudget`` (``RequestBody``), before the
/// generated interface decodes it, so no body is buffered past its limit. The body is JSON
/// whatever its declared type: `curl -d` sends `application/x-www-form-urlencoded`, and
/// clients written before the spec was enforced send none.
struct JSONBodyMiddleware: RouterMiddleware {
    typealias Context = GlimpseRequestContext
    /// Largest body, in bytes.
    let limit: Int
    /// The pace a body must keep.
    let upload: UploadPolicy
    /// The bytes all bodies held at once may take.
    let budget: BodyBudget
    /// The timer that refuses a stalled body.
    let watchdog: DeadlineWatchdog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let lease = try await RequestBody.collect(request, limit: limit, policy: upload, budget: budget, watchdog: watchdog)
        defer { lease.release() }
        var context = context
        context.collectedBody = lease.bytes
        // The request goes on with its body read: the route takes the bytes from the context.
        return try await next(request, context)
    }
}
