package dev.legio.backend;

import java.util.Objects;

/**
 * What a back-end needs to open a conversation.
 *
 * @param owner the agent or channel the session belongs to ({@code vorenus}, {@code telegram:1})
 * @param systemPrompt the system prompt
 * @param model the model to use, or null for the back-end's default
 * @param role what the session may do: {@link #OPERATOR_ROLE} (the owner's full toolset) or {@link
 *     #CHAT_ROLE} (a public chat channel: restricted tools)
 * @param resumeId the back-end's id of a conversation to continue, or null to start a new one
 */
public record SessionSpec(
    String owner, String systemPrompt, String model, String role, String resumeId) {
  public static final String OPERATOR_ROLE = "operator";
  public static final String CHAT_ROLE = "chat";

  public SessionSpec {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(systemPrompt, "systemPrompt");
    Objects.requireNonNull(role, "role");
  }
}
