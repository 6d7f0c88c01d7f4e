// Reading a text's UTF-16 code units from a typed array, which the scanning loops read instead of
// charCodeAt (what that gains is measured by bench/detect.ts, not claimed here). The copy is native and
// verbatim.

/**
 * A reader that copies a text's code units into a buffer of its own, reused from call to call: the view
 * it returns is valid until that reader's next call. Each detector keeps its own reader, so that no
 * detector's view is overwritten by another's while it still reads it.
 */
export function codeUnitReader(): (text: string) => Uint16Array {
  let buffer = Buffer.allocUnsafeSlow(2 * 8192);
  return (text) => {
    if (2 * text.length > buffer.length) buffer = Buffer.allocUnsafeSlow(2 * text.length);
    buffer.write(text, 0, 'utf16le');
    return new Uint16Array(buffer.buffer, buffer.byteOffset, text.length);
  };
}
