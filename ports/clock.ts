/** The only source of "now" for core: tests pass a clock they can move. */
export interface Clock {
  now(): Date;
}
