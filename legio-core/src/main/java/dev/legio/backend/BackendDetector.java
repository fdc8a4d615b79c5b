package dev.legio.backend;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Chooses a back-end when {@code [backend] kind = "auto"}: the first usable of
 *
 * <ol>
 *   <li>{@code claude-cli}: a {@code claude} program on the {@code PATH};
 *   <li>{@code anthropic}: the variable {@code ANTHROPIC_API_KEY} (or the one {@code [backend]
 *       api_key_env} names) is set;
 *   <li>{@code ollama}: an Ollama server answers on {@code localhost:11434} (or the configured
 *       {@code base_url}) within a short time;
 *   <li>{@code offline}: the built-in model.
 * </ol>
 *
 * and says which it chose and why ({@link Choice#reason()}, a line for the console and the log).
 * The environment, the {@code PATH} lookup and the Ollama probe are passed in, so tests decide what
 * exists.
 */
public final class BackendDetector {
  public static final String DEFAULT_OLLAMA_URL = "http://localhost:11434";

  /** The kind chosen, and a sentence saying why. */
  public record Choice(String kind, String reason) {
    public Choice {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Finds a program on the {@code PATH}. */
  @FunctionalInterface
  public interface ProgramLookup {
    Optional<Path> find(String program);
  }

  private final Map<String, String> env;
  private final ProgramLookup programs;
  private final Predicate<String> ollamaAnswers;

  /**
   * @param env the environment
   * @param programs finds {@code claude} on the {@code PATH}
   * @param ollamaAnswers true when an Ollama server answers at the given base URL
   */
  public BackendDetector(
      Map<String, String> env, ProgramLookup programs, Predicate<String> ollamaAnswers) {
    this.env = Objects.requireNonNull(env, "env");
    this.programs = Objects.requireNonNull(programs, "programs");
    this.ollamaAnswers = Objects.requireNonNull(ollamaAnswers, "ollamaAnswers");
  }

  /** A detector over the real {@code PATH} of {@code env} and a real probe of Ollama. */
  public static BackendDetector forEnvironment(Map<String, String> env) {
    return new BackendDetector(env, pathLookup(env), ollamaProbe(Duration.ofMillis(500)));
  }

  /**
   * Chooses.
   *
   * @param apiKeyVariable the variable holding an Anthropic API key
   * @param ollamaUrl where to look for Ollama ({@code [backend] base_url}, or null for the default)
   */
  public Choice detect(String apiKeyVariable, String ollamaUrl) {
    Optional<Path> claude = programs.find("claude");
    if (claude.isPresent()) {
      return new Choice(
          "claude-cli", "back-end: claude-cli (found the claude program at " + claude.get() + ")");
    }
    String key = env.get(apiKeyVariable);
    if (key != null && !key.isBlank()) {
      return new Choice(
          "anthropic",
          "back-end: anthropic (no claude program on the PATH; " + apiKeyVariable + " is set)");
    }
    String url = ollamaUrl == null || ollamaUrl.isBlank() ? DEFAULT_OLLAMA_URL : ollamaUrl;
    if (ollamaAnswers.test(url)) {
      return new Choice(
          "ollama",
          "back-end: ollama (no claude program, no "
              + apiKeyVariable
              + "; an Ollama server answers at "
              + url
              + ")");
    }
    return new Choice(
        "offline",
        "back-end: offline (no claude program on the PATH, no "
            + apiKeyVariable
            + ", no Ollama server at "
            + url
            + "); set [backend] kind in legio.toml to choose one");
  }

  /** Looks programs up in the directories of {@code env}'s {@code PATH}. */
  public static ProgramLookup pathLookup(Map<String, String> env) {
    return program -> {
      String path = env.get("PATH");
      if (path == null || path.isBlank()) {
        return Optional.empty();
      }
      for (String dir : path.split(File.pathSeparator)) {
        if (dir.isBlank()) {
          continue;
        }
        Path candidate = Path.of(dir, program);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
      return Optional.empty();
    };
  }

  /** Asks {@code GET /api/version} and waits at most {@code timeout} for a 200. */
  public static Predicate<String> ollamaProbe(Duration timeout) {
    return url -> {
      try (HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build()) {
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/version")).timeout(timeout).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && response.body().contains("version");
      } catch (java.io.IOException | IllegalArgumentException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    };
  }
}
