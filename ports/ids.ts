/** Fresh identifiers (UUID v4 in production). */
export interface IdGenerator {
  newId(): string;
}
