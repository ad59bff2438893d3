/**
 * Builds one large string from many pieces of a source text without a string per piece:
 * characters are copied into a typed array and decoded once. One byte per character
 * while every character fits (the usual terminal output), two once one does not.
 * Node hands a result over ~1 MB to V8 as an external string, so neither the buffer nor
 * the result adds to the JavaScript heap the garbage collector sizes itself by.
 */
export class TextBuilder {
  private chars: Uint8Array | Uint16Array;
  private used = 0;

  constructor(capacity: number) {
    this.chars = new Uint8Array(Math.max(16, capacity));
  }

  get length(): number {
    return this.used;
  }

  /** Appends source[start..end). */
  appendSlice(source: string, start: number, end: number): void {
    this.reserve(end - start);
    let chars = this.chars;
    let narrow = chars instanceof Uint8Array;
    let used = this.used;
    for (let i = start; i < end; i++) {
      const code = source.charCodeAt(i);
      if (code > 0xff && narrow) {
        this.used = used;
        chars = this.widen();
        narrow = false;
      }
      chars[used++] = code;
    }
    this.used = used;
  }

  append(text: string): void {
    this.appendSlice(text, 0, text.length);
  }

  appendNewline(): void {
    this.reserve(1);
    this.chars[this.used++] = 10;
  }

  toString(): string {
    const { buffer, byteOffset, BYTES_PER_ELEMENT } = this.chars;
    const bytes = Buffer.from(buffer, byteOffset, this.used * BYTES_PER_ELEMENT);
    return bytes.toString(BYTES_PER_ELEMENT === 1 ? "latin1" : "utf16le");
  }

  private reserve(extra: number): void {
    if (this.used + extra <= this.chars.length) return;
    const grown = new (this.chars.constructor as Uint8ArrayConstructor | Uint16ArrayConstructor)(Math.max(this.chars.length * 2, this.used + extra));
    grown.set(this.chars.subarray(0, this.used));
    this.chars = grown;
  }

  private widen(): Uint16Array {
    const wide = new Uint16Array(this.chars.length);
    wide.set(this.chars.subarray(0, this.used));
    this.chars = wide;
    return wide;
  }
}
