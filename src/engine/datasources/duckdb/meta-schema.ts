/**
 * A schema a database file made by the service keeps its own bookkeeping in (the demo database's
 * build marker): not data to query, so introspection leaves it out.
 */
export const SERVICE_META_SCHEMA = 'demo_meta';
