package dev.legio.usage;

import java.util.Objects;

/**
 * What ties a turn of a task session to its task: the caller's session key, the agent profile the
 * session runs, and the task run that caused the turn.
 *
 * @param sessionKey the key the caller chose ({@code campaign:7f3c…})
 * @param agent the agent profile of the session
 * @param taskRunId the caller's id of the task run; null when the caller gave none
 */
public record TaskRef(String sessionKey, String agent, String taskRunId) {
  public TaskRef {
    Objects.requireNonNull(sessionKey, "sessionKey");
    Objects.requireNonNull(agent, "agent");
  }
}
