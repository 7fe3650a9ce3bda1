/** The time core reads; injectable so tests can freeze or advance it. */
export interface Clock {
  now(): Date
}
