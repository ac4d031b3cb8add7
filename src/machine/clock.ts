// The clock moved to the ground floor (src/clock/clock.ts) so src/servers can wait on it; the measurement's
// importers still name it here.
export { type Clock, realClock } from '../clock/clock.ts';
