# The reference for tst_ops_recurrent: torch.nn.LSTM / nn.GRU(batch_first=True) loads each
# case's parameters with strict=True (so the names and shapes are PyTorch's), runs the input,
# and backpropagates sum(y * dy). `last` is the final state of the top layer's directions,
# side by side. Usage: recurrent_torch.py cases.json results.json
import json
import sys

import torch


def tensor(t):
    return torch.tensor(t["data"], dtype=torch.float32).reshape(t["shape"])


def run(case):
    cls = torch.nn.LSTM if case["cell"] == "LSTM" else torch.nn.GRU
    directions = 2 if case["bidirectional"] else 1
    m = cls(case["input_size"], case["hidden_size"], num_layers=case["num_layers"],
            bidirectional=case["bidirectional"], batch_first=True)
    m.load_state_dict({name: tensor(t) for name, t in case["params"].items()}, strict=True)
    x = tensor(case["x"]).requires_grad_()
    y, state = m(x)
    if case["return"] == "last":
        h_n = state[0] if isinstance(state, tuple) else state  # [layers * directions, batch, hidden]
        y = h_n[-directions:].permute(1, 0, 2).reshape(x.shape[0], -1)
    (y * tensor(case["dy"])).sum().backward()
    grads = {"input": x.grad.flatten().tolist()}
    grads.update({name: p.grad.flatten().tolist() for name, p in m.named_parameters()})
    return {"shape": list(y.shape), "y": y.detach().flatten().tolist(), "grads": grads}


def main():
    torch.set_num_threads(1)
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump([run(c) for c in cases], f)


main()
