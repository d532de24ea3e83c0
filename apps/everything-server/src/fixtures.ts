/** Small binary payloads for the image, audio and binary-resource fixtures, built in memory. */

/** A 1×1 PNG (a single opaque red pixel). */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid 8 kHz, 8-bit mono WAV of 100 ms silence: the RIFF header plus its samples. */
export const WAV_BASE64 = wavSilence(8000, 800);

function wavSilence(sampleRate: number, samples: number): string {
  const header = 44;
  const bytes = new Uint8Array(header + samples);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, header - 8 + samples, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // PCM format chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate, true); // byte rate: 1 byte per sample
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, samples, true);
  bytes.fill(128, header); // 8-bit PCM silence is the midpoint
  return btoa(String.fromCharCode(...bytes));
}
