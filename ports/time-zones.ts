/** The IANA time-zone ids this server knows: exactly what a household may be set to. */
export interface TimeZoneCatalog {
  ids(): readonly string[];
  has(id: string): boolean;
}
