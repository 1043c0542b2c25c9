/** esbuild bundles the style sheet imported by main.ts into main.css. */
declare module '*.css';
