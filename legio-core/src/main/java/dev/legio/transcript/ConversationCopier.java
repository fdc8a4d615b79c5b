package dev.legio.transcript;

import com.fasterxml.uuid.Generators;
import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.ConversationStore;
import dev.legio.session.SessionRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Copies a session's back-end conversation without its last turns, for a rewind or a fork ({@link
 * SessionHistoryEditor}); the conversation itself is never changed.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The conversation is the one the session record names. One among the HTTP back-ends' stored
 *       conversations is copied into a new stored conversation (a new time-ordered id, created now)
 *       holding all but its last turns, and everything else as it was.
 *   <li>Else one among the Claude Code CLI's own transcripts is copied into a new CLI transcript (a
 *       new random id) that ends before the request ({@link SessionHistoryEditor#isPrompt}) which
 *       began the first turn taken back; its entries keep their ids, and entries of other types
 *       (the CLI's attachments, say) are left out, whatever pointed at one pointing at its nearest
 *       kept ancestor, so the chain the CLI follows stays whole. The copy is written whole, on
 *       disk, before a rewind's note names it.
 *   <li>A record naming no conversation, or one Legio cannot reach (in neither store, or a CLI copy
 *       that would be empty), gets no copy: the caller closes the session instead.
 * </ul>
 */
final class ConversationCopier {
  private final ConversationStore conversations;
  private final TranscriptStore cliTranscripts;
  private final Clock clock;

  /**
   * @param conversations the HTTP back-ends' conversations; null when there are none
   * @param cliTranscripts the Claude Code CLI's own transcripts; null when the CLI is not used
   */
  ConversationCopier(ConversationStore conversations, TranscriptStore cliTranscripts, Clock clock) {
    this.conversations = conversations;
    this.cliTranscripts = cliTranscripts;
    this.clock = clock;
  }

  /**
   * Copies the record's back-end conversation without its last {@code turnsRemoved} turns; returns
   * the copy's id, or null when the conversation is not one Legio can reach.
   */
  String copyWithout(SessionRecord record, int turnsRemoved) {
    String id = record.backendSessionId();
    if (id == null) {
      return null;
    }
    if (conversations != null) {
      Optional<Conversation> found = Optional.empty();
      try {
        found = conversations.find(UUID.fromString(id));
      } catch (IllegalArgumentException notAUuid) {
        // not one of the stored conversations
      }
      if (found.isPresent()) {
        Conversation c = found.get();
        int keep = Math.max(0, c.turns().size() - turnsRemoved);
        UUID copyId = Generators.timeBasedEpochGenerator().generate();
        conversations.create(
            new Conversation(
                copyId,
                c.owner(),
                c.backend(),
                c.model(),
                c.systemPrompt(),
                c.summary(),
                c.previousId(),
                clock.instant(),
                c.turns().subList(0, keep),
                c.compactionFailures(),
                c.compactionDisabled()));
        return copyId.toString();
      }
    }
    if (cliTranscripts != null) {
      Transcript cli;
      try {
        cli = cliTranscripts.load(id);
      } catch (NoSuchTranscriptException | IllegalArgumentException e) {
        return null;
      }
      List<TranscriptEntry> prompts =
          cli.entries().stream().filter(SessionHistoryEditor::isPrompt).toList();
      int keep = Math.max(0, prompts.size() - turnsRemoved);
      UUID copyId = UUID.randomUUID();
      List<NewEntry> copy = new ArrayList<>();
      // Entries of other types (the CLI's attachments, say) are left out; whatever pointed at one
      // points at its nearest kept ancestor, so the chain the CLI follows stays whole.
      Map<String, String> skipped = new HashMap<>();
      for (TranscriptEntry e : cli.entries()) {
        if (keep < prompts.size() && e == prompts.get(keep)) {
          break;
        }
        String parentId = e.parentUuid();
        while (parentId != null && skipped.containsKey(parentId)) {
          parentId = skipped.get(parentId);
        }
        UUID parent = parentId == null ? null : UUID.fromString(parentId);
        if (e.isSummary()) {
          copy.add(
              new NewEntry.Summary(
                  UUID.fromString(e.uuid()), parent, e.text(), e.messagesCompacted()));
        } else if (SessionHistoryEditor.MESSAGE_TYPES.contains(e.type())) {
          copy.add(new NewEntry.Message(e.type(), UUID.fromString(e.uuid()), parent, e.message()));
        } else if (e.uuid() != null) {
          skipped.put(e.uuid(), parentId);
        }
      }
      if (copy.isEmpty()) {
        return null;
      }
      cliTranscripts.create(copyId.toString(), copy); // whole, on disk, before a note names it
      return copyId.toString();
    }
    return null;
  }
}
