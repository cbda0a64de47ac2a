import type { Job } from '../platform/scheduler.ts'
import { POLL_MS } from './job-queue.ts'
import type { ContentService } from './service.ts'

// The content module's background work, registered in the scheduler by compose.ts.

/**
 * Runs the queue of content jobs (job-queue.ts) on every instance: jobs added by another instance,
 * and jobs whose lease ended (at start: those a gone process left running). A run lasts while jobs
 * run; at shutdown it ends at once, and the stop stops the jobs and hands them back.
 */
export function contentQueueJob(content: ContentService): Job {
  return {
    name: 'content-jobs',
    everyMs: POLL_MS,
    start: () => content.queue.takeOver(),
    run: ({ signal }) => content.queue.work(signal),
    stop: () => content.queue.stop(),
  }
}

/** Removes raw uploads a crash left behind, from this instance's own temporary folder. */
export function rawUploadSweepJob(content: ContentService): Job {
  return {
    name: 'raw-upload-sweep',
    everyMs: 60 * 60_000,
    run: () => content.sweepRawUploads(),
  }
}

/**
 * Deletes uploads and content no order names once UNORDERED_CONTENT_TTL_HOURS have passed (rows and
 * files): on one instance at a time, so nothing is deleted twice.
 */
export function contentLifetimeJob(content: ContentService, now: () => number): Job {
  return {
    name: 'content-lifetime',
    everyMs: 15 * 60_000,
    oneInstance: true,
    run: () => content.sweepUnordered(now()),
  }
}
