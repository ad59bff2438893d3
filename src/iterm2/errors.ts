// Kept apart from the client so code that only names the error does not load ws and protobufjs.
export class Iterm2Error extends Error {
  override name = "Iterm2Error";
}

/** iTerm2 answered the WebSocket handshake with an HTTP refusal (401: not authorized; 406: library too old). */
export class Iterm2Refusal extends Iterm2Error {
  override name = "Iterm2Refusal";
  constructor(message: string, readonly status: number) {
    super(message);
  }
}
