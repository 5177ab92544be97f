// Draws the Stockbridge logo (a through-arch bridge on the accent colour) as SVG and as PNG icons
// for the web manifest. No image library is installed, so the PNGs are rasterised here with 4x4
// supersampling and encoded with node:zlib. Run: `node web/scripts/make-icons.mjs`.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "public");
const ACCENT = [79, 70, 229]; // #4f46e5, the app's accent colour
const WHITE = [255, 255, 255];

// The bridge in unit coordinates (0..1), shared by the SVG and the rasteriser.
const ARCH = { cx: 0.5, cy: 0.67, outer: 0.34, inner: 0.275 };
const DECK = { x0: 0.12, x1: 0.88, y0: 0.53, y1: 0.595 };
const HANGERS = [0.38, 0.5, 0.62];
const HANGER_WIDTH = 0.04;
const CORNER = 0.22;

function inBridge(x, y) {
  const d = Math.hypot(x - ARCH.cx, y - ARCH.cy);
  if (y <= ARCH.cy && d <= ARCH.outer && d >= ARCH.inner) return true;
  if (x >= DECK.x0 && x <= DECK.x1 && y >= DECK.y0 && y <= DECK.y1) return true;
  for (const hx of HANGERS) {
    if (Math.abs(x - hx) <= HANGER_WIDTH / 2 && y <= DECK.y0 && d <= ARCH.inner + 0.01) return true;
  }
  return false;
}

function inRoundedSquare(x, y, radius) {
  const cx = Math.min(Math.max(x, radius), 1 - radius);
  const cy = Math.min(Math.max(y, radius), 1 - radius);
  return Math.hypot(x - cx, y - cy) <= radius;
}

/** `scale` shrinks the bridge towards the centre (maskable icons keep it inside the safe zone). */
function render(size, { fullBleed, scale }) {
  const rgba = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          if (!fullBleed && !inRoundedSquare(x, y, CORNER)) continue;
          bg++;
          if (inBridge(0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale)) fg++;
        }
      }
      const total = samples * samples;
      const t = bg === 0 ? 0 : fg / bg;
      const offset = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) rgba[offset + c] = Math.round(ACCENT[c] * (1 - t) + WHITE[c] * t);
      rgba[offset + 3] = Math.round((255 * bg) / total);
    }
  }
  return encodePng(size, rgba);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function svg() {
  const u = (n) => Math.round(n * 512 * 100) / 100;
  const hangers = HANGERS.map((hx) => {
    const top = ARCH.cy - Math.sqrt(ARCH.inner ** 2 - (hx - ARCH.cx) ** 2) - 0.01;
    return `<rect x="${u(hx - HANGER_WIDTH / 2)}" y="${u(top)}" width="${u(HANGER_WIDTH)}" height="${u(DECK.y0 - top)}"/>`;
  }).join("");
  const arch =
    `M${u(ARCH.cx - ARCH.outer)} ${u(ARCH.cy)}A${u(ARCH.outer)} ${u(ARCH.outer)} 0 0 1 ${u(ARCH.cx + ARCH.outer)} ${u(ARCH.cy)}` +
    `H${u(ARCH.cx + ARCH.inner)}A${u(ARCH.inner)} ${u(ARCH.inner)} 0 0 0 ${u(ARCH.cx - ARCH.inner)} ${u(ARCH.cy)}Z`;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" role="img" aria-label="Stockbridge">',
    `<rect width="512" height="512" rx="${u(CORNER)}" fill="#4f46e5"/>`,
    `<g fill="#fff"><path d="${arch}"/>`,
    `<rect x="${u(DECK.x0)}" y="${u(DECK.y0)}" width="${u(DECK.x1 - DECK.x0)}" height="${u(DECK.y1 - DECK.y0)}"/>`,
    `${hangers}</g></svg>`,
    "",
  ].join("");
}

writeFileSync(join(OUT, "logo.svg"), svg());
writeFileSync(join(OUT, "favicon.svg"), svg());
writeFileSync(join(OUT, "pwa-192x192.png"), render(192, { fullBleed: false, scale: 1 }));
writeFileSync(join(OUT, "pwa-512x512.png"), render(512, { fullBleed: false, scale: 1 }));
writeFileSync(join(OUT, "maskable-512x512.png"), render(512, { fullBleed: true, scale: 0.72 }));
writeFileSync(join(OUT, "apple-touch-icon-180x180.png"), render(180, { fullBleed: true, scale: 0.85 }));
console.log(`icons written to ${OUT}`);
