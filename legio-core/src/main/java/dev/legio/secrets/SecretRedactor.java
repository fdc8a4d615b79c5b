package dev.legio.secrets;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where secrets are masked before anything is printed or logged: the log file's and
 * the console's layout, standard error and the command-line error handler all pass their text
 * through {@link #redact}.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>Every secret {@link #register registered} (the API keys, database passwords and tokens a
 *       process knows, from its environment and its {@code legio.toml}) is replaced by {@link
 *       #MASK} wherever it occurs, in any text, whole or inside a longer word.
 *   <li>Text that looks like a credential is masked even when its value was never registered (a key
 *       a back-end learnt elsewhere): {@code sk-…} API keys, the value after {@code Bearer}, after
 *       {@code x-api-key}/{@code api_key}/{@code token}/{@code password}/{@code secret} followed by
 *       {@code :} or {@code =}, and the user-info of a URL ({@code https://user:pass@host} reads
 *       {@code https://***@host}: a URL's password, or a token given as its user name, wherever a
 *       message words the URL).
 *   <li>Values shorter than {@value #MIN_SECRET_LENGTH} characters are not registered: masking
 *       every "abc" in a log would hide more than it protects.
 *   <li>Redacting is idempotent and leaves text without secrets unchanged.
 * </ol>
 *
 * Thread-safe; the registry is process-wide because every logger in the process must see it.
 */
public final class SecretRedactor {
  /** What a secret is replaced with. */
  public static final String MASK = "***";

  /** The shortest value {@link #register} accepts. */
  public static final int MIN_SECRET_LENGTH = 6;

  /** Environment variable names whose values are secrets. */
  private static final Pattern SECRET_VARIABLE =
      Pattern.compile("(?i).*(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL).*");

  private static final List<Pattern> SHAPES =
      List.of(
          // sk-ant-api03-…, sk-proj-…, sk-… (Anthropic, OpenAI and their imitators).
          Pattern.compile("\\bsk-[A-Za-z0-9][A-Za-z0-9_\\-]{7,}"),
          // Authorization: Bearer …
          Pattern.compile("(?i)(\\bbearer\\s+)[A-Za-z0-9._~+/=\\-]{6,}"),
          // x-api-key: …, "api_key": "…", token=…, password=…, secret: …
          Pattern.compile(
              "(?i)((?:x-api-key|api[_-]?key|access[_-]?token|auth[_-]?token|token|password"
                  + "|passwd|secret)[\"']?\\s*[:=]\\s*[\"']?)(?!\\*\\*\\*)[^\\s\"',;&}]{6,}"),
          // scheme://user:password@host, scheme://token@host: the user-info, up to the last '@'
          // before the path, query or fragment (a password may hold an unescaped '@').
          Pattern.compile("(?i)(\\b[a-z][a-z0-9+.\\-]*://)[^\\s/?#\"'<>]+(?=@)"));

  private static final Set<String> SECRETS = ConcurrentHashMap.newKeySet();
  private static volatile List<String> longestFirst = List.of();

  private SecretRedactor() {}

  /**
   * Masks {@code secret} from now on in everything {@link #redact} sees; null or short: ignored.
   */
  public static void register(String secret) {
    if (secret == null) {
      return;
    }
    String value = secret.strip();
    if (value.length() < MIN_SECRET_LENGTH || !SECRETS.add(value)) {
      return;
    }
    synchronized (SECRETS) {
      longestFirst =
          SECRETS.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }
  }

  /**
   * Registers the values of the variables of {@code env} whose names say they hold a secret ({@code
   * ANTHROPIC_API_KEY}, {@code TELEGRAM_BOT_TOKEN}, {@code PGPASSWORD}, ...).
   */
  public static void registerSecretsOf(Map<String, String> env) {
    env.forEach(
        (name, value) -> {
          if (SECRET_VARIABLE.matcher(name).matches()) {
            register(value);
          }
        });
  }

  /** {@code text} with every secret masked (see the class comment); null stays null. */
  public static String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String out = text;
    for (String secret : longestFirst) {
      if (out.contains(secret)) {
        out = out.replace(secret, MASK);
      }
    }
    for (int i = 0; i < SHAPES.size(); i++) {
      Matcher m = SHAPES.get(i).matcher(out);
      if (m.find()) {
        out = i == 0 ? m.replaceAll(MASK) : m.replaceAll("$1" + MASK);
      }
    }
    return out;
  }

  /** Whether {@code text} holds a registered secret or something shaped like one. */
  public static boolean holdsSecret(String text) {
    return text != null && !redact(text).equals(text);
  }
}
