// For promises whose failure must not stop the caller (a pane title, a border colour, a
// cleanup after a failed open): `.catch(traced("what"))` instead of a silent
// `.catch(() => {})`, so the failure leaves a trace when tracing is on (TERMHIVE_DEBUG=1,
// read in config.ts; the composition root turns the sink on).

let sink: ((line: string) => void) | null = null;

/** Where traces go (null: nowhere). Set once at start-up. */
export function traceTo(write: ((line: string) => void) | null): void {
  sink = write;
}

/** A rejection handler that records why `what` failed and lets the caller go on. */
export function traced(what: string): (error: unknown) => void {
  return (error) => {
    sink?.(`termhive: ${what} failed (ignored): ${error instanceof Error ? error.message : String(error)}\n`);
  };
}
