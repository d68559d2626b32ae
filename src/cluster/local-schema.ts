/** The schema names `standing cluster-local` takes: lower-case letters, digits and _, not first a digit, at most 63 (PostgreSQL's limit). A module of its own so the CLI's option check loads nothing else. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
