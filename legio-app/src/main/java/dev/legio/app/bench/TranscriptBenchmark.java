package dev.legio.app.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.NewEntry;
import dev.legio.transcript.Transcript;
import dev.legio.transcript.TranscriptEntry;
import dev.legio.transcript.TranscriptFullException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * {@code legio bench transcripts}: writes one transcript of {@code --size-mb} MB in 4 parts (1% of
 * its entries tombstones of earlier messages), then loads it. Prints one {@code key=value} per
 * line:
 *
 * <ul>
 *   <li>{@code append_per_s}: appends of one entry each (lock, part check, one write), one writer.
 *   <li>{@code load_mb_per_s}: the transcript's size over the median time of 5 loads (after 2
 *       warm-up loads), from the page cache.
 *   <li>{@code load_peak_heap_mb}: the peak heap in use during one load, above what was in use
 *       before it, next to {@code loaded_messages_mb} (the size of the lines of the messages it
 *       returned) and their ratio.
 *   <li>{@code baseline_python_mb_per_s}: a Python loader doing the same two passes with the json
 *       module on the same files in the same run (median of 3), when {@code python3} is on the
 *       {@code PATH}; {@code load_vs_python} is the ratio.
 * </ul>
 */
public final class TranscriptBenchmark {
  private static final String SESSION = "bench-session";
  private static final int PARTS = 4;

  /** Room above a quarter of the size, so that 4 parts hold it whatever the last entry's size. */
  private static final long PART_SLACK = 64 * 1024;

  /** What to run. */
  public record Settings(int sizeMb) {
    public Settings {
      if (sizeMb < 1 || sizeMb > 1600) {
        throw new IllegalArgumentException("--size-mb must be from 1 to 1600");
      }
    }
  }

  private final Settings settings;
  private final PrintWriter out;
  private final PrintWriter err;

  public TranscriptBenchmark(Settings settings, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
  }

  public void run() throws Exception {
    Path dir = Files.createTempDirectory("legio-bench-transcripts");
    try {
      long total = settings.sizeMb() * 1_000_000L;
      FileTranscriptStore store =
          new FileTranscriptStore(
              dir.resolve("projects"),
              dir.resolve("project"),
              Clock.systemUTC(),
              total / PARTS + PART_SLACK,
              total);
      int appends = write(store);
      Transcript once = store.load(SESSION);
      long bytes = once.report().bytes();
      print("size_mb", BenchSupport.fmt(bytes / 1e6));
      print("parts", once.report().parts());
      print("messages", once.entries().size());
      print("tombstones", once.report().tombstones());
      print("tombstoned", once.report().tombstoned());
      once = null;

      for (int i = 0; i < 2; i++) {
        store.load(SESSION);
      }
      long[] times = new long[5];
      var os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpuStart = os.getProcessCpuTime();
      for (int i = 0; i < times.length; i++) {
        long start = System.nanoTime();
        Transcript t = store.load(SESSION);
        times[i] = System.nanoTime() - start;
        if (t.entries().isEmpty()) {
          throw new IllegalStateException("the load returned nothing");
        }
      }
      long cpu = (os.getProcessCpuTime() - cpuStart) / times.length;
      Arrays.sort(times);
      double loadMbPerS = bytes / 1e6 / (times[times.length / 2] / 1e9);
      print("load_ms", BenchSupport.fmt(times[times.length / 2] / 1e6));
      print("load_mb_per_s", BenchSupport.fmt(loadMbPerS));
      double loadCpuMbPerS = bytes / 1e6 / (cpu / 1e9);
      print("load_cpu_ms", BenchSupport.fmt(cpu / 1e6));
      print("load_cpu_mb_per_s", BenchSupport.fmt(loadCpuMbPerS));

      List<MemoryPoolMXBean> heap =
          ManagementFactory.getMemoryPoolMXBeans().stream()
              .filter(p -> p.getType() == MemoryType.HEAP)
              .toList();
      System.gc();
      long before = 0;
      for (MemoryPoolMXBean p : heap) {
        p.resetPeakUsage();
        before += p.getUsage().getUsed();
      }
      Transcript held = store.load(SESSION);
      long peak = 0;
      for (MemoryPoolMXBean p : heap) {
        peak += p.getPeakUsage().getUsed();
      }
      long messageBytes = 0;
      for (TranscriptEntry e : held.entries()) {
        messageBytes += e.byteSize();
      }
      double peakMb = (peak - before) / 1e6;
      print("load_peak_heap_mb", BenchSupport.fmt(peakMb));
      print("loaded_messages_mb", BenchSupport.fmt(messageBytes / 1e6));
      print("heap_vs_messages", BenchSupport.fmt(peakMb / (messageBytes / 1e6)));
      // Bodies are parsed on demand: show that one parses.
      if (held.entries().get(held.entries().size() / 2).message().isMissingNode()) {
        throw new IllegalStateException("a loaded message has no body");
      }
      held = null;
      print("append_per_s", String.valueOf(appends));

      double[] python = python(store.folder(), bytes);
      if (python != null) {
        print("baseline_python_mb_per_s", BenchSupport.fmt(python[0]));
        print("baseline_python_cpu_mb_per_s", BenchSupport.fmt(python[1]));
        print("load_vs_python", BenchSupport.fmt(loadMbPerS / python[0]));
        print("load_cpu_vs_python_cpu", BenchSupport.fmt(loadCpuMbPerS / python[1]));
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
  }

  /** Fills the transcript until the next entry would not fit; returns appends per second. */
  private int write(FileTranscriptStore store) {
    Random random = new Random(42);
    String[] words = {
      "the", "legion", "marches", "north", "road", "scout", "report", "bridge", "river", "camp",
      "supplies", "orders", "centurio", "fix", "tests", "module", "build", "error", "line", "file"
    };
    String[] texts = new String[512];
    for (int i = 0; i < texts.length; i++) {
      int length = 100 + random.nextInt(i % 8 == 0 ? 12_000 : 2_500);
      StringBuilder text = new StringBuilder(length + 16);
      while (text.length() < length) {
        text.append(words[random.nextInt(words.length)]);
        text.append(random.nextInt(12) == 0 ? ".\n" : " ");
      }
      texts[i] = text.toString();
    }
    List<UUID> written = new ArrayList<>();
    UUID parent = null;
    long start = System.nanoTime();
    int appends = 0;
    int lastPercent = -1;
    long target = settings.sizeMb() * 1_000_000L;
    try {
      while (true) {
        NewEntry entry;
        if (appends % 100 == 99 && !written.isEmpty()) {
          entry = NewEntry.tombstone(written.get(random.nextInt(written.size())));
        } else if (appends % 2 == 0) {
          NewEntry.Message m = NewEntry.user(parent, texts[random.nextInt(texts.length)]);
          written.add(m.uuid());
          parent = m.uuid();
          entry = m;
        } else {
          ObjectNode message = JsonNodeFactory.instance.objectNode();
          message.put("role", "assistant").put("model", "claude-sonnet-4-6");
          var content = message.putArray("content");
          content.addObject().put("type", "text").put("text", texts[random.nextInt(texts.length)]);
          if (random.nextInt(4) == 0) {
            content
                .addObject()
                .put("type", "tool_use")
                .put("id", "toolu_" + appends)
                .put("name", "Read")
                .putObject("input")
                .put("file_path", "/project/src/file" + random.nextInt(100) + ".java");
          }
          message.putObject("usage").put("input_tokens", 1200).put("output_tokens", 300);
          NewEntry.Message m =
              new NewEntry.Message("assistant", UUID.randomUUID(), parent, message);
          written.add(m.uuid());
          parent = m.uuid();
          entry = m;
        }
        store.append(SESSION, List.of(entry));
        appends++;
        if (appends % 1000 == 0) {
          int percent = (int) Math.min(100, 100.0 * appends * 2_100 / target);
          if (percent / 10 != lastPercent / 10) {
            err.printf("writing the transcript: ~%d%%%n", percent);
            err.flush();
            lastPercent = percent;
          }
        }
      }
    } catch (TranscriptFullException full) {
      // the transcript is at its size
    }
    long nanos = System.nanoTime() - start;
    return (int) (appends / (nanos / 1e9));
  }

  /**
   * The Python baseline's MB/s by wall-clock and by CPU time (medians of 3), or null when python3
   * cannot run.
   */
  private double[] python(Path folder, long bytes) throws IOException, InterruptedException {
    Path script = Files.createTempFile("legio-transcript-baseline", ".py");
    try {
      try (InputStream in =
          TranscriptBenchmark.class.getResourceAsStream("transcript_baseline.py")) {
        Files.write(script, in.readAllBytes());
      }
      List<String> command = new ArrayList<>(List.of("python3", script.toString()));
      try (var files = Files.list(folder)) {
        files
            .map(Path::toString)
            .filter(f -> f.endsWith(".jsonl"))
            .sorted(TranscriptBenchmark::byPart)
            .forEach(command::add);
      }
      double[] rates = new double[3];
      double[] cpuRates = new double[3];
      for (int i = 0; i < rates.length; i++) {
        Process p;
        try {
          p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
          err.println("python3 not found: no baseline (" + e.getMessage() + ")");
          return null;
        }
        String line;
        try (BufferedReader r =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
          line = r.readLine();
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0 || line == null) {
          err.println("the python baseline failed: " + line);
          return null;
        }
        String[] figures = line.split(" ");
        rates[i] = bytes / 1e6 / Double.parseDouble(figures[0]);
        cpuRates[i] = bytes / 1e6 / Double.parseDouble(figures[1]);
      }
      Arrays.sort(rates);
      Arrays.sort(cpuRates);
      return new double[] {rates[1], cpuRates[1]};
    } finally {
      Files.deleteIfExists(script);
    }
  }

  private static int byPart(String a, String b) {
    return Integer.compare(partNumber(a), partNumber(b));
  }

  private static int partNumber(String file) {
    int i = file.lastIndexOf("_part");
    return i < 0 ? 1 : Integer.parseInt(file.substring(i + 5, file.length() - ".jsonl".length()));
  }

  private void print(String key, Object value) {
    out.println(key + "=" + value);
    out.flush();
  }
}
