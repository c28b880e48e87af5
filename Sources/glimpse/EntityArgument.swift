import Catalog

/// Parses an entity named on the command line: a URL (`glimpse://landmark/<id>`) or
/// `KIND:ID` (`landmark:landmarks/hurricane-ridge`, `collection:food`).
func entityReference(_ text: String) throws -> EntityReference {
    if text.lowercased().hasPrefix(EntityReference.scheme + "://") {
        do { return try EntityReference(url: text) } catch { throw failure(error.description) }
    }
    guard let colon = text.firstIndex(of: ":") else {
        throw failure("\(text): not an entity; give a glimpse:// URL or KIND:ID (landmark:ID, collection:ID)")
    }
    let kindText = text[..<colon].lowercased()
    let id = String(text[text.index(after: colon)...])
    guard let kind = EntityKind(rawValue: kindText) else {
        throw failure("\(text): unknown kind '\(kindText)'; use landmark or collection")
    }
    guard !id.isEmpty else { throw failure("\(text): the id after ':' is empty") }
    return EntityReference(kind: kind, id: id)
}
