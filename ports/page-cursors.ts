/**
 * Opaque, tamper-evident page cursors. A cursor carries a position (a few strings) and is bound to a scope (the
 * list and its filter): opening it under another scope, or opening anything `seal` did not make, gives null.
 */
export interface PageCursors {
  seal(scope: string, position: readonly string[]): string;
  open(scope: string, cursor: string): string[] | null;
}
