// The types of this module are generated at build time from `openapi.yaml` (this folder) by
// swift-openapi-generator's build plugin: `Components.Schemas.*` (the JSON bodies),
// `Components.Parameters.*`, `Operations.*` (each operation's input and output) and the
// `APIProtocol` that the client implements. Change the API by changing `openapi.yaml`; code that
// does not follow it stops compiling. `Sources/Server/openapi.yaml` and
// `Sources/GlimpseClient/openapi.yaml` are links to this folder's file.
