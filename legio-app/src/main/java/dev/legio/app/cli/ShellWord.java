package dev.legio.app.cli;

import java.util.regex.Pattern;

/**
 * A word of a command line Legio prints for the user to paste into a POSIX shell ({@code sh},
 * {@code bash}, {@code zsh}), such as the {@code More:} line of {@code legio sessions list}.
 *
 * <p>Rules: a word of letters, digits and {@code _ @ % + = : , . / -} only is printed as it is; any
 * other word (a space, {@code $}, {@code *}, a quote, {@code ~}, an empty word) is put in single
 * quotes, each {@code '} in it written {@code '\''}, so that the shell passes it on unchanged:
 * nothing in it is expanded, split or globbed.
 *
 * <p>Public for the scripts tests write for a shell to run (the {@code legio} wrapper of the curl
 * examples' test).
 */
public final class ShellWord {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private ShellWord() {}

  /** {@code word} as a POSIX shell reads it back unchanged. */
  public static String quote(String word) {
    if (PLAIN.matcher(word).matches()) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
