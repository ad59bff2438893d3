// Kept apart from the client so code that only names the error does not load ws and protobufjs.
export class Iterm2Error extends Error {
  override name = "Iterm2Error";
}
