import Testing
@testable import Search
