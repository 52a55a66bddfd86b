"""The importer's shortcut for recurrent layers on the meta device (kopt_torch.abi._RecurrentShapes): the
shapes and the flop count it gives are those of the decomposed forward the meta device would otherwise run,
for LSTM (batch-first, bidirectional, projected, without biases), GRU and both RNN nonlinearities, batched
and unbatched; a packed sequence is left to the decomposition.

Run: ``cd python && python -m unittest -v tests.test_recurrent_shapes``
"""

from __future__ import annotations

import unittest

import torch
import torch.nn as nn
from torch.utils.flop_counter import FlopCounterMode

from kopt_torch.abi import _RecurrentShapes


def _shapes(out):
    states = out[1] if isinstance(out[1], tuple) else (out[1],)
    return [tuple(out[0].shape)] + [tuple(s.shape) for s in states]


class RecurrentShapesTest(unittest.TestCase):
    def test_shapes_and_flops_match_the_decomposed_forward(self):
        layers = [nn.LSTM(8, 16, 2, batch_first=True), nn.LSTM(8, 16, 3, bidirectional=True, proj_size=5),
                  nn.LSTM(8, 16, bias=False), nn.GRU(8, 16, bidirectional=True, batch_first=True),
                  nn.RNN(8, 16, 2, nonlinearity="relu"), nn.RNN(8, 16)]
        for layer in layers:
            for shape in ((5, 3, 8), (7, 8)):
                with self.subTest(layer=repr(layer), shape=shape):
                    layer = layer.to("meta")
                    x = torch.empty(*shape, device="meta")
                    decomposed, shortcut, mode = FlopCounterMode(display=False), FlopCounterMode(display=False), \
                        _RecurrentShapes()
                    with torch.no_grad(), decomposed:
                        want = layer(x)
                    with torch.no_grad(), shortcut, mode:
                        got = layer(x)
                    self.assertEqual(_shapes(got), _shapes(want))
                    self.assertGreater(mode.flops, 0, "the shortcut ran (a flop count of its own)")
                    self.assertEqual(shortcut.get_total_flops() + mode.flops, decomposed.get_total_flops())

    def test_a_packed_sequence_and_real_tensors_are_run_as_they_are(self):
        lstm = nn.LSTM(4, 6)
        packed = nn.utils.rnn.pack_padded_sequence(torch.randn(5, 2, 4), [5, 3])
        mode = _RecurrentShapes()
        with torch.no_grad(), mode:
            out, _ = lstm(packed)
            real, _ = lstm(torch.randn(5, 2, 4))
        self.assertIsInstance(out, nn.utils.rnn.PackedSequence)
        self.assertFalse(real.is_meta)
        self.assertEqual(mode.flops, 0, "neither call was answered by the shortcut")


if __name__ == "__main__":
    unittest.main()
