package dev.legio.session;

import dev.legio.agents.AgentDirectory;
import dev.legio.agents.AgentProfile;
import dev.legio.agents.Roster;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.config.SessionSettings;
import java.util.List;
import java.util.function.Function;

/**
 * Resolves an owner's {@link OwnerProfile} from its prompt file and the settings.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A centurio: its own prompt, the operator role; its front matter's {@code history_window}
 *       and {@code max_input_tokens} override the settings.
 *   <li>The legatus: its prompt followed by the roster of the centuriones (whose hash is part of
 *       the shape, so a roster change rebuilds it), the operator role.
 *   <li>A channel: the legatus's prompt followed by a line naming the channel and its role (the
 *       role its source maps to in {@code [sessions.channels]}), the channels' token threshold and
 *       idle timeout.
 *   <li>An agent's idle timeout is {@code session_idle_timeout_minutes}; with {@code [sessions]
 *       resume_after_idle = true} it is its back-end's time to live ({@code [sessions.ttl_days]}).
 *   <li>An agent naming a back-end kind in its front matter ({@code backend: ollama}) runs on that
 *       back-end; without one, or naming the default's kind, on the default. Naming another kind
 *       when the engine has no other back-ends fails the turn, naming the file.
 * </ul>
 */
final class OwnerProfiles {
  private final AgentDirectory agents;
  private final SessionSettings settings;
  private final ModelBackend backend;
  private final Function<String, ModelBackend> backendsByKind;

  /**
   * @param backendsByKind the back-end of each other kind; null when only {@code backend} exists
   */
  OwnerProfiles(
      AgentDirectory agents,
      SessionSettings settings,
      ModelBackend backend,
      Function<String, ModelBackend> backendsByKind) {
    this.agents = agents;
    this.settings = settings;
    this.backend = backend;
    this.backendsByKind = backendsByKind;
  }

  OwnerProfile resolve(Owner owner) {
    return switch (owner.kind()) {
      case CENTURIO -> {
        AgentProfile p =
            agents
                .centurio(owner.name())
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "agent "
                                + owner.name()
                                + " has no readable prompt.md under castra/centuriones/"));
        yield new OwnerProfile(
            owner,
            p.description(),
            shape(p, p.prompt(), SessionSpec.OPERATOR_ROLE, null),
            agentLimits(p),
            List.of());
      }
      case LEGATUS -> {
        AgentProfile p = agents.legatus();
        List<AgentProfile> centuriones = agents.centuriones();
        Roster roster = Roster.of(centuriones);
        yield new OwnerProfile(
            owner,
            p.description(),
            shape(p, p.prompt() + "\n\n" + roster.xml(), SessionSpec.OPERATOR_ROLE, roster.hash()),
            agentLimits(p),
            centuriones);
      }
      case CHANNEL -> {
        AgentProfile p = agents.legatus();
        String role = settings.channels().roleFor(owner.source());
        String prompt =
            p.prompt()
                + "\n\nYou are talking with Caesar through the "
                + owner.source()
                + " channel "
                + owner.name()
                + " (role: "
                + role
                + ").";
        yield new OwnerProfile(
            owner,
            p.description(),
            shape(p, prompt, role, null),
            new SessionLimits(
                p.historyWindow().orElse(settings.historyWindow()),
                settings.channels().contextThresholdTokens(),
                settings.channels().idleTimeout()),
            List.of());
      }
    };
  }

  private SessionShape shape(AgentProfile p, String systemPrompt, String role, String rosterHash) {
    return new SessionShape(
        backendFor(p), systemPrompt, p.model(), role, p.promptHash(), rosterHash);
  }

  /**
   * An agent's limits. With {@code [sessions] resume_after_idle}, idleness rebuilds its session
   * only past its back-end's time to live (the reaper closes its process earlier, and the next turn
   * resumes the conversation).
   */
  private SessionLimits agentLimits(AgentProfile p) {
    return new SessionLimits(
        p.historyWindow().orElse(settings.historyWindow()),
        p.maxInputTokens().orElse(settings.maxInputTokens()),
        settings.resumeAfterIdle()
            ? settings.ttlFor(backendFor(p).kind())
            : settings.idleTimeout());
  }

  /**
   * The back-end of {@code profile}'s sessions: its own kind when it names one, else the default.
   */
  private ModelBackend backendFor(AgentProfile profile) {
    String kind = profile.backend();
    if (kind == null || kind.equals(backend.kind())) {
      return backend;
    }
    if (backendsByKind == null) {
      throw new IllegalStateException(
          profile.file()
              + " names back-end '"
              + kind
              + "', but this engine has only '"
              + backend.kind()
              + "'");
    }
    return backendsByKind.apply(kind);
  }
}
