package dev.legio.app.server;

import dev.legio.agents.AgentConfigException;
import dev.legio.log.InvalidMessageException;
import dev.legio.session.RequestKeyReusedException;
import java.util.function.Supplier;

/**
 * Runs a call into the engine, turning what it throws for bad input into a 400, a message to an
 * agent whose {@code prompt.md} is broken into a 409 naming the file, a request key sent again with
 * another message into a 422, and "shutting down" into a 503.
 */
final class Dispatch {
  private Dispatch() {}

  static <T> T run(Supplier<T> call) {
    try {
      return call.get();
    } catch (InvalidMessageException e) {
      throw ApiException.badRequest(e.getMessage());
    } catch (AgentConfigException e) {
      // An agent whose prompt.md cannot be used (the legatus's or a centurio's): the message is
      // refused before it is logged, naming the file and what is wrong in it.
      throw new ApiException(409, e.getMessage() + "; fix the file, then send the message again");
    } catch (RequestKeyReusedException e) {
      throw new ApiException(422, IdempotencyKeys.HEADER + ": " + e.getMessage());
    } catch (IllegalStateException e) {
      if (e.getMessage() != null && e.getMessage().contains("shutting down")) {
        throw new ApiException(503, "Legio is shutting down; send the message again when it is up");
      }
      throw e;
    }
  }
}
