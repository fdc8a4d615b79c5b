package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class LineBytesTest {
  /** Eight bytes, most of them plain text, some of them the bytes a string's walk stops at. */
  @Provide
  Arbitrary<byte[]> words() {
    Arbitrary<Byte> plain = Arbitraries.bytes().between((byte) 0x20, (byte) 0x7e);
    Arbitrary<Byte> any = Arbitraries.bytes();
    Arbitrary<Byte> stops = Arbitraries.of((byte) '"', (byte) '\\', (byte) 0, (byte) 0x1f);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(6, plain),
            net.jqwik.api.Tuple.of(2, any),
            net.jqwik.api.Tuple.of(1, stops))
        .array(byte[].class)
        .ofSize(8);
  }

  @Property(tries = 5000)
  void theLowestFlagOfStringStopsIsTheFirstByteAStringWalkMustLookAt(@ForAll("words") byte[] word) {
    long w = ByteBuffer.wrap(word).order(ByteOrder.LITTLE_ENDIAN).getLong();
    int expected = 8;
    for (int i = 0; i < 8; i++) {
      byte b = word[i];
      if (b == '"' || b == '\\' || (b >= 0 && b < 0x20) || b < 0) {
        expected = i;
        break;
      }
    }
    long hit = LineBytes.stringStops(w);
    int lowest = hit == 0 ? 8 : Long.numberOfTrailingZeros(hit) >>> 3;
    assertThat(lowest).isEqualTo(expected);
  }
}
