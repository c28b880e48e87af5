import Catalog
import Foundation
import Hummingbird
import Logging
import Search

/// `POST /v1/admin/remove` (`{"id", "kind", "mode": "archive"|"delete"}`) and
/// `POST /v1/admin/undo`: catalog changes over HTTP, behind ``AdminAuthMiddleware``. Both
/// are soft (undo restores) and answer a ``RemovalBody``; the index is rebuilt off to the
/// side right after.
struct AdminRoutes {
    let state: ServerState

    private struct RemoveBody: Decodable {
        var id: String
        var kind: String
        var mode: String
    }

    func add(to router: Router<GlimpseRequestContext>) {
        let group = router.group("/v1/admin").add(middleware: AdminAuthMiddleware(token: state.configuration.adminToken))
        group.post("remove") { request, context in try await remove(request, context) }
        group.post("undo") { request, context in try await undo(request, context) }
    }

    func remove(_ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        let lease = try await RequestBody.collect(request, limit: 16 << 10, policy: state.configuration.upload, budget: state.bodyBudget)
        defer { lease.release() }
        let parsed: RemoveBody
        do { parsed = try await context.requestDecoder.decode(RemoveBody.self, collected: lease.bytes, from: request, context: context) } catch {
            throw APIError.badRequest("invalid_body", "the body must be {\"id\": ID, \"kind\": \"landmark\"|\"collection\", \"mode\": \"archive\"|\"delete\"}")
        }
        guard let kind = EntityKind(rawValue: parsed.kind) else {
            throw APIError.badRequest("invalid_body", "kind must be landmark or collection")
        }
        let reason: Removal.Reason
        switch parsed.mode {
        case "archive": reason = .archivedByUser
        case "delete": reason = .removedByUser
        default: throw APIError.badRequest("invalid_body", "mode must be archive or delete")
        }
        let reference = EntityReference(kind: kind, id: parsed.id)
        do {
            let removal = try await state.store.remove(reference, reason: reason)
            state.reloader.requestCheck()
            state.logger.notice("catalog change over HTTP", metadata: ["removed": "\(reference.url)", "mode": "\(parsed.mode)"])
            return context.json(RemovalBody(removal), for: request)
        } catch {
            if case .unknownEntity = error { throw APIError.notFound(error.description) }
            throw APIError.store(error)
        }
    }

    func undo(_ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        do {
            let removal = try await state.store.undoLastRemoval()
            state.reloader.requestCheck()
            return context.json(RemovalBody(removal), for: request)
        } catch { throw APIError.store(error) }
    }
}
