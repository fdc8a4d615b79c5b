package dev.legio.app.gateway.webhook;

import dev.legio.app.conversation.Conversations;
import dev.legio.app.conversation.Speaker;
import dev.legio.log.InvalidMessageException;
import dev.legio.session.DispatchListener;
import dev.legio.session.InterruptionNote;
import dev.legio.session.Reply;
import dev.legio.session.RequestKey;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turns a webhook gateway runs after it has answered the platform: each on a virtual thread of
 * its own, through {@link Conversations#inChannel} (the path every door shares), its answer handed
 * to the gateway to send.
 *
 * <p>Rules: what the platform's user reads is the channel's reply; a refusal (a text too long or
 * empty) or a session busy past the wait is answered in words, never dropped silently. A turn cut
 * by Legio's shutdown is told to {@link Answer#interrupted}: the gateway keeps the message for the
 * next process, or tells its user in words of its own. Closing waits up to {@link #GRACE} for turns
 * in flight, then interrupts them and waits up to {@link #GRACE} more for them to hand on what they
 * have.
 */
public final class ChannelTurns implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ChannelTurns.class);

  /** How long closing waits for turns in flight. */
  public static final Duration GRACE = Duration.ofSeconds(5);

  static final String BUSY =
      "I am still answering an earlier message in this channel; send yours again in a moment.";

  private final Conversations doors;
  private final ExecutorService threads;

  public ChannelTurns(Conversations doors, String threadName) {
    this.doors = doors;
    this.threads =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(threadName, 0).factory());
  }

  /** Where a turn's answer goes. */
  public interface Answer {
    void send(String text);

    /**
     * The turn was cut by Legio's shutdown ({@code note} says so, as logged). Each gateway says
     * what its user reads then: the note itself names the internal channel key and answers nothing,
     * so none sends it as it is.
     */
    void interrupted(String note);
  }

  /** Runs a turn of {@code channel} in the background, then hands its answer to {@code answer}. */
  public void run(String channel, Speaker speaker, String text, Answer answer) {
    run(channel, speaker, text, null, answer);
  }

  /**
   * As {@link #run(String, Speaker, String, Answer)}, as one request however often it is run with
   * {@code requestKey} (null: none; see {@link RequestKey}).
   */
  public void run(
      String channel, Speaker speaker, String text, RequestKey requestKey, Answer answer) {
    threads.execute(
        () -> {
          String reply;
          boolean interrupted = false;
          try {
            Conversations.ChannelTurn turn =
                doors.inChannel(channel, speaker, text, DispatchListener.NONE, requestKey);
            reply = answerOf(turn);
            interrupted =
                turn.reply() != null && InterruptionNote.isNote(turn.outcome(), turn.reply());
          } catch (InvalidMessageException e) {
            reply = e.getMessage();
          } catch (RuntimeException e) {
            log.error("the turn of {} failed", channel, e);
            reply =
                "Something went wrong while answering; the operator can find it in Legio's log.";
          }
          try {
            if (interrupted) {
              answer.interrupted(reply);
            } else {
              answer.send(reply);
            }
          } catch (RuntimeException e) {
            log.error("the answer of {} could not be handed to its gateway", channel, e);
          }
        });
  }

  private static String answerOf(Conversations.ChannelTurn turn) {
    Reply reply = turn.reply();
    if (reply == null) {
      return turn.outcome().refusal();
    }
    return Conversations.busy(reply) ? BUSY : reply.text();
  }

  @Override
  public void close() {
    threads.shutdown();
    try {
      if (!threads.awaitTermination(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        threads.shutdownNow();
        // the interrupted turns hand their answers on (or say they were cut) before the gateway
        // closes what sends them
        threads.awaitTermination(GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      threads.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
