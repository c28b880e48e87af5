import Catalog
import GlimpseAPITypes
import Logging
import Search

/// `POST /v1/admin/remove` (`{"id", "kind", "mode": "archive"|"delete"}`) and
/// `POST /v1/admin/undo`: catalog changes over HTTP, operations of the generated interface
/// registered behind ``AdminAuthMiddleware`` (``OperationRegistrar``). Both are soft (undo
/// restores) and answer the spec's `RemovalAnswer`; the index is rebuilt off to the side right
/// after.
extension GlimpseAPIHandler {
    func removeEntity(_ input: Operations.RemoveEntity.Input) async throws -> Operations.RemoveEntity.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("invalid_body", "the body must be JSON") }
        let kind: EntityKind = body.kind == .landmark ? .landmark : .collection
        let reason: Removal.Reason = body.mode == .archive ? .archivedByUser : .removedByUser
        let reference = EntityReference(kind: kind, id: body.id)
        do {
            let removal = try await state.store.remove(reference, reason: reason)
            state.reloader.requestCheck()
            state.logger.notice("catalog change over HTTP", metadata: ["removed": "\(reference.url)", "mode": "\(body.mode.rawValue)"])
            return .ok(.init(body: .json(.init(removal))))
        } catch {
            if case .unknownEntity = error { throw APIError.notFound(error.description) }
            throw APIError.store(error)
        }
    }

    func undoRemoval(_ input: Operations.UndoRemoval.Input) async throws -> Operations.UndoRemoval.Output {
        do {
            let removal = try await state.store.undoLastRemoval()
            state.reloader.requestCheck()
            return .ok(.init(body: .json(.init(removal))))
        } catch { throw APIError.store(error) }
    }
}
