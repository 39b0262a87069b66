/**
 * Time left of a running import, from its progress as its events report it. The rate is an
 * average over time in which older stretches count less and less (half as much every few seconds),
 * so a slow start or a slow source fades from the estimate instead of skewing it to the end; and
 * no estimate is given before enough of the work is done to judge by.
 */
export interface ProgressSample {
  /** Seconds since the job started. */
  seconds: number;
  done: number;
  total: number;
}

/** Seconds after which a stretch of progress counts half as much as the newest. */
const HALF_LIFE_SECONDS = 3;
/** No estimate before this share of the work is done… */
const MIN_SHARE_DONE = 0.05;
/** …nor before the job has run this long. */
const MIN_SECONDS = 2;

export class TimeLeft {
  /** Work done and seconds spent, each stretch weighted by its age. */
  private work = 0;
  private time = 0;
  private last: ProgressSample = { seconds: 0, done: 0, total: 0 };

  /** Takes a new sample; answers the seconds left, or undefined while there is no fair estimate. */
  add(sample: ProgressSample): number | undefined {
    const spent = sample.seconds - this.last.seconds;
    if (spent > 0) {
      const fade = Math.pow(2, -spent / HALF_LIFE_SECONDS);
      this.work = this.work * fade + Math.max(0, sample.done - this.last.done);
      this.time = this.time * fade + spent;
      this.last = sample;
    }
    return this.estimate();
  }

  estimate(): number | undefined {
    const { done, total, seconds } = this.last;
    if (total <= 0 || this.work <= 0 || done / total < MIN_SHARE_DONE || seconds < MIN_SECONDS) {
      return undefined;
    }
    return (Math.max(0, total - done) * this.time) / this.work;
  }
}
