/// What an index run does with the catalog's entities that its source does not name.
public enum IndexMode: String, Sendable, Hashable, CaseIterable {
    /// The source is the whole catalog (the default): landmarks and collections it no longer
    /// names are soft-deleted as one undoable removal. The commit reads and digests the
    /// whole catalog: O(catalog entities).
    case replace
    /// The source adds to the catalog (`glimpse index --add`): entities it does not name
    /// are kept as they are; a collection it names keeps its members and gains the source's
    /// (appended, in source order); new entities are placed after the existing ones. The
    /// commit reads only the source's entities: O(source entities + their images), whatever
    /// the catalog's size.
    case add
}
