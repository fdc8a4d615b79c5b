package dev.legio.transcript;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Every session with a transcript in a project folder, and what the listing passed over.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>One damaged transcript never hides the others: an entry of the folder that is not a regular
 *       file (a folder named {@code X.jsonl}, a symbolic link; see {@link TranscriptFiles}) and a
 *       session whose transcript cannot be read are left out and named in {@link #skipped}, one
 *       line each saying what to do, and the rest is listed. (Malformed lines inside a transcript
 *       do not make it unreadable: they are skipped and counted when it is loaded.)
 *   <li>File names that cannot be session ids are not transcripts of Legio's: passed over, not
 *       reported.
 *   <li>Sessions come newest first, by the last change of any of their parts.
 * </ul>
 *
 * @param sessions the sessions listed
 * @param skipped for people: one line per entry or session left out, naming it
 */
public record TranscriptListing(List<TranscriptInfo> sessions, List<String> skipped) {

  /** Lists {@code folder}'s {@code *suffix} files, reading each session with {@code info}. */
  static TranscriptListing of(Path folder, String suffix, Function<String, TranscriptInfo> info) {
    List<String> skipped = new ArrayList<>();
    List<TranscriptInfo> out = new ArrayList<>();
    for (String id : sessionIds(folder, suffix, skipped)) {
      try {
        TranscriptInfo one = info.apply(id);
        if (one != null) {
          out.add(one);
        }
      } catch (TranscriptException e) {
        skipped.add(leftOut(id, e));
      }
    }
    out.sort(Comparator.comparing(TranscriptInfo::lastModified).reversed());
    return new TranscriptListing(List.copyOf(out), List.copyOf(skipped));
  }

  /**
   * The session ids of {@code folder}'s {@code *suffix} files, sorted, that can be session ids;
   * entries that are not regular files are named in {@code skipped}. None when the folder is
   * missing.
   */
  static Set<String> sessionIds(Path folder, String suffix, List<String> skipped) {
    Set<String> ids = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + suffix)) {
      for (Path f : files) {
        String refused = TranscriptFiles.refusal(f);
        if (refused != null) {
          skipped.add(refused);
          continue;
        }
        String id = FileTranscriptStore.sessionIdOf(f.getFileName().toString());
        try {
          ids.add(FileTranscriptStore.checkId(id));
        } catch (IllegalArgumentException e) {
          // not a session file of ours
        }
      }
    } catch (NoSuchFileException e) {
      return Set.of();
    } catch (IOException e) {
      throw new TranscriptException("cannot list " + folder + ": " + e.getMessage(), e);
    }
    return ids;
  }

  /** The line {@link #skipped} holds for a session that could not be read. */
  static String leftOut(String sessionId, TranscriptException e) {
    return "session " + sessionId + " left out: " + e.getMessage();
  }
}
