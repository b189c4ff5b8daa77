# The peer of bench_verify: what people run to check cuDNN by hand, torch's view of the same
# questions (is the GPU usable, which cuDNN, does a convolution through it run and agree with the CPU).
import torch

assert torch.cuda.is_available(), "no GPU for torch"
print("cuDNN", torch.backends.cudnn.version())
torch.backends.cudnn.allow_tf32 = False
inputs = torch.rand(1, 3, 16, 16)
weights = torch.rand(4, 3, 3, 3)
expected = torch.nn.functional.conv2d(inputs.double(), weights.double(), padding=1)
actual = torch.nn.functional.conv2d(inputs.cuda(), weights.cuda(), padding=1).cpu().double()
error = float((actual - expected).abs().max())
assert error < 1e-3, error
print("max error", error)
