/** `npm start`: serve the API (src/serve.ts); `nl2sql serve` runs the same. */
import { failStart, serve } from './serve';

serve().catch(failStart);
