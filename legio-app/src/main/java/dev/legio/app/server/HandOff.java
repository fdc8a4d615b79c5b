package dev.legio.app.server;

import java.util.concurrent.Callable;

/**
 * Keeps the API's threads for the API: the work of a request that runs a turn, or that may wait
 * long for anything else, leaves them.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The API's threads (Jetty's pool of platform threads) route, check the token, and read and
 *       check a body that has arrived whole (a body still on its way is read on a virtual thread:
 *       {@link ArrivedBody}). They never run a turn and never wait for one: a call into the engine
 *       ({@link ApiExchange#afterEngine}) runs on a virtual thread of its own, and the API thread
 *       goes back to the pool at once.
 *   <li>The virtual thread that ran the call writes the answer too (no hop back: the answer is
 *       ready to go when the call returns), through the router, which turns what the call or the
 *       answer throws into a JSON error as for any step.
 *   <li>The engine's time is measured from the hand-off to the call's return, its wait for a
 *       carrier thread included (the engine's own queue); it is sent as {@code Server-Timing:
 *       engine}.
 *   <li>What waits long without the engine (an event stream, a request sent on to another node)
 *       continues on a virtual thread too ({@link ApiExchange#onVirtualThread}), and answers there.
 *   <li>Each virtual thread started here asks the {@link EngineThreadPriority} to run its carrier
 *       below the API's threads, so that turns that keep every core busy do not delay the API.
 * </ul>
 */
final class HandOff {
  /** One step of answering an exchange: may throw what the router turns into an error. */
  @FunctionalInterface
  interface Step {
    void run() throws Exception;
  }

  /** What the API answers with the engine's result. */
  @FunctionalInterface
  interface Answer<T> {
    void write(T result) throws Exception;
  }

  /**
   * Runs a step of an exchange with the router's error mapping; the exchange ends after a step that
   * hands nothing on.
   */
  @FunctionalInterface
  interface Steps {
    void respond(ApiExchange exchange, Step step);
  }

  private final EngineThreadPriority priority;
  private final Steps steps;

  HandOff(EngineThreadPriority priority, Steps steps) {
    this.priority = priority;
    this.steps = steps;
  }

  /** Runs {@code call} on a virtual thread, then {@code answer} with its result there. */
  <T> void afterEngine(ApiExchange exchange, Callable<T> call, Answer<T> answer) {
    long handedOff = System.nanoTime();
    Thread.ofVirtual()
        .name("legio-engine-call")
        .start(
            () -> {
              priority.lowerCurrentCarrier();
              steps.respond(
                  exchange,
                  () -> {
                    T result;
                    try {
                      result = call.call();
                    } finally {
                      exchange.engineTook(System.nanoTime() - handedOff);
                    }
                    answer.write(result);
                  });
            });
  }

  /** Runs {@code step} on a virtual thread of its own, with the router's error mapping. */
  void onVirtualThread(ApiExchange exchange, Step step) {
    Thread.ofVirtual()
        .name("legio-api-wait")
        .start(
            () -> {
              priority.lowerCurrentCarrier();
              steps.respond(exchange, step);
            });
  }
}
