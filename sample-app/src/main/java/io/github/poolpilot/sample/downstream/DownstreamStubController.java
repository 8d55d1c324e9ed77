package io.github.poolpilot.sample.downstream;

import java.util.concurrent.CompletableFuture;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves the {@link DownstreamStub} over HTTP. The answer is asynchronous, so that a call
 * holds no servlet thread while it waits.
 *
 * @author poolpilot authors
 */
@RestController
class DownstreamStubController {

	private final DownstreamStub stub;

	DownstreamStubController(DownstreamStub stub) {
		this.stub = stub;
	}

	@PostMapping(DownstreamClient.STUB_PATH)
	CompletableFuture<DownstreamReply> talk(@RequestBody DownstreamRequest request) {
		return this.stub.reply(request.message());
	}

}
