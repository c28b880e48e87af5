// The types of this module are generated at build time from `openapi.yaml` (this folder) by
// swift-openapi-generator's build plugin: `Components.Schemas.*` (the JSON bodies),
// `Components.Parameters.*`, `Operations.*` (each operation's input and output) and the
// `APIProtocol` that the server implements (`GlimpseAPIHandler` in Server) and the generated
// client calls (GlimpseClient). Change the API by changing `openapi.yaml`; code that does not
// follow it stops compiling. `Sources/Server/openapi.yaml` and `Sources/GlimpseClient/openapi.yaml`
// are links to this folder's file. The one hand-written type, `Nullable` (Nullable.swift), is what
// the spec's required-but-nullable properties map to.
