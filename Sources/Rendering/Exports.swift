@_exported import Search
