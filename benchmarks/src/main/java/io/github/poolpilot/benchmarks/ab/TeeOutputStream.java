package io.github.poolpilot.benchmarks.ab;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes what it is given to two streams, so that what the harness prints is also kept.
 *
 * @author poolpilot authors
 */
final class TeeOutputStream extends OutputStream {

	private final OutputStream first;

	private final OutputStream second;

	TeeOutputStream(OutputStream first, OutputStream second) {
		this.first = first;
		this.second = second;
	}

	@Override
	public void write(int b) throws IOException {
		this.first.write(b);
		this.second.write(b);
	}

	@Override
	public void write(byte[] bytes, int offset, int length) throws IOException {
		this.first.write(bytes, offset, length);
		this.second.write(bytes, offset, length);
	}

	@Override
	public void flush() throws IOException {
		this.first.flush();
		this.second.flush();
	}

}
