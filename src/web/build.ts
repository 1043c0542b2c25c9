/**
 * Bundles the playground page (src/web/page) with esbuild into dist/web: the HTML, one script and
 * one style sheet, every library inside the bundle, so the page loads nothing from elsewhere.
 * `npm run build` runs it after tsc; the browser tests build into their own folder with buildWeb(dir).
 */
import { build } from 'esbuild';
import { join, relative, resolve } from 'node:path';

const PAGE_DIR = resolve(__dirname, 'page');
export const DEFAULT_WEB_OUT_DIR = resolve(__dirname, '..', '..', 'dist', 'web');

/** Builds the page into `outdir`; returns each output file's size in bytes. */
export async function buildWeb(outdir = DEFAULT_WEB_OUT_DIR): Promise<Record<string, number>> {
  const result = await build({
    entryPoints: [join(PAGE_DIR, 'main.ts'), join(PAGE_DIR, 'index.html')],
    outdir,
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    target: ['es2022', 'chrome120', 'firefox120', 'safari16'],
    loader: { '.html': 'copy' },
    metafile: true,
    logLevel: 'warning',
    legalComments: 'linked',
  });
  return Object.fromEntries(
    Object.entries(result.metafile.outputs).map(([file, out]) => [relative(outdir, file), out.bytes]),
  );
}

if (require.main === module) {
  const outdir = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_WEB_OUT_DIR;
  buildWeb(outdir).then(
    (sizes) => {
      const listed = Object.entries(sizes)
        .filter(([f]) => !f.endsWith('.map'))
        .map(([f, b]) => `${f} ${(b / 1024).toFixed(1)} KiB`)
        .join(', ');
      console.log(`playground page built into ${outdir}: ${listed}`);
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
