// Waiting in a test for what another process (termhive, a shell, an agent) does: the probe is
// asked again every `everyMs` until it gives a value, and the wait fails, naming what it waited
// for, after `timeoutMs`. Events are awaited where there are any; this is for state that has
// none a test can subscribe to (a mailbox, an audit line, a pane's border).

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
