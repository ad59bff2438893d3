// A URL termhive may POST to (notification webhooks): http or https and parseable. The error
// never echoes the URL itself: webhook URLs carry their token in the path.

export class HttpUrlError extends Error {
  override name = "HttpUrlError";
}

/** The normalised URL, or an HttpUrlError naming `where` (not the URL). */
export function checkHttpUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new HttpUrlError(`${where}: not a URL; write http://… or https://…`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new HttpUrlError(`${where}: ${url.protocol} URLs are not sent to; use http:// or https://`);
  }
  return url.toString();
}
