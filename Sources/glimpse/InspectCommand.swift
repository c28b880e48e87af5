import ArgumentParser

/// `glimpse inspect`: decode an image (or a region of it) and describe what was decoded.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode an image or a region of it and print what was decoded.",
        discussion: "Example: glimpse inspect photo.jpg --region 120,340,800,600 --min-side 64"
    )

    @Argument(help: "The PNG or JPEG file to decode.")
    var image: String

    func run() async throws {
        throw failure("\(image): inspect is not implemented yet")
    }
}
