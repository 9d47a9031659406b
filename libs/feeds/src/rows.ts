export type Row = Record<string, string | number | boolean | null>;
