/// Bytes of a memory-mapped visual-index snapshot that do not match their block checksum,
/// found when a search first read them (``VisualIndexSnapshot`` checks the rest on open).
/// The search that meets it stops without an answer; the index must be built from the
/// catalog again (``VisualSearchQuery`` does so and searches again).
public struct VisualIndexDamage: Error, Sendable, Hashable, CustomStringConvertible {
    /// The snapshot file.
    public var path: String
    /// Byte offset in the file of the first damaged block.
    public var offset: Int

    /// One line for people, naming what and why.
    public var description: String {
        "\(path): visual-index snapshot damaged: the block at byte \(offset) does not match its checksum"
    }
}
