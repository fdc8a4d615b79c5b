package dev.legio.app.server;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The API's own threads: the pool that runs Jetty's selector, its acceptor and every request up to
 * its hand-off ({@link HandOff}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Platform threads, {@value #COUNT} of them, all started with the server from the thread that
 *       starts it: a thread started later from one of the engine's lowered threads would inherit
 *       its priority ({@link EngineThreadPriority}).
 *   <li>The selector keeps selecting: the pool holds no reserved threads. With reserved threads,
 *       Jetty runs a request that may block on the thread that selected it and hands selecting to a
 *       reserved thread, which must first wake up; when turns keep every core busy that wake-up
 *       waits for a core, and for as long as it waits no connection is read (the API's overhead
 *       then came in bursts: every request that arrived meanwhile waited the same 2 – 4 ms). With
 *       none, the selector gives each request to a pool thread and goes straight back to selecting,
 *       so a slow wake-up delays one request, not all of them (docs/BENCHMARKS.md, session 10).
 * </ul>
 */
final class ApiThreads {
  /** The API's platform threads (Jetty's default maximum). */
  static final int COUNT = 200;

  /** Threads' names: {@code legio-http-N}. */
  static final String NAME = "legio-http";

  private ApiThreads() {}

  /** A new pool, to be started with the server. */
  static QueuedThreadPool pool() {
    QueuedThreadPool threads = new QueuedThreadPool(COUNT, COUNT);
    threads.setName(NAME);
    threads.setReservedThreads(0);
    return threads;
  }
}
