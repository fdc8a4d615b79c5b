package dev.legio.session;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.NameBasedGenerator;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.NewMessage;
import java.util.UUID;

/**
 * What an agent's session logs when Legio's shutdown interrupts its turn: {@code (interrupted:
 * Legio shut down before AGENT answered)}, as the agent's reply to the request, so that the history
 * shows why no answer followed.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The note is no answer. It is logged under an id derived from the request and the session
 *       ({@link #id}: a name-based UUID), so that a request sent again under its {@link RequestKey}
 *       is not answered with the note: the turn runs again, once.
 *   <li>A request interrupted again is noted once (the log's primary key refuses the second).
 *   <li>A reply is told for a note by its id ({@link #isNote}), never by its text, which an agent
 *       could write too.
 * </ul>
 */
public final class InterruptionNote {
  /** The namespace of the notes' ids (a fixed random UUID). */
  private static final NameBasedGenerator IDS =
      Generators.nameBasedGenerator(UUID.fromString("c2a7e5b4-3f61-4d0a-8e9b-5d4f2a1c7e36"));

  private InterruptionNote() {}

  /** The text of the note for {@code session}'s interrupted turn. */
  public static String text(String session) {
    return "(interrupted: Legio shut down before " + session + " answered)";
  }

  /** The id of {@code session}'s note on {@code request}. */
  public static UUID id(UUID request, String session) {
    return IDS.generate(request + "\n" + session);
  }

  /** The note of {@code session}'s interrupted turn on {@code request}, to log. */
  static NewMessage of(Message request, String session, String sender, Audience audience) {
    return NewMessage.of(sender, audience, text(session))
        .replyingTo(request.id())
        .withId(id(request.id(), session));
  }

  /** True when {@code reply} of {@code outcome} is an interruption note, not an answer. */
  public static boolean isNote(Outcome outcome, Reply reply) {
    return outcome.request() != null
        && reply.messageId() != null
        && reply.messageId().equals(id(outcome.request().id(), reply.agent()));
  }
}
