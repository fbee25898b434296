<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttrHelp</name>
    <message>
        <source>Fully connected layer: y = xWᵀ + b</source>
        <translation>全连接层：y = xWᵀ + b</translation>
    </message>
    <message>
        <source>2-D convolution over [N, C, H, W] images: learned filters slide over the plane</source>
        <translation>对 [N, C, H, W] 图像做二维卷积：学习到的滤波器在平面上滑动</translation>
    </message>
    <message>
        <source>Zeroes a random share p of the values while training (and scales the rest by 1/(1-p)); identity when evaluating</source>
        <translation>训练时将随机比例 p 的值置零（并将其余值乘以 1/(1-p)）；评估时为恒等映射</translation>
    </message>
    <message>
        <source>Looks up a learned vector for each integer index (words, categories)</source>
        <translation>为每个整数索引（词、类别）查找一个学习到的向量</translation>
    </message>
    <message>
        <source>max(0, x): the default activation, fast and well understood</source>
        <translation>max(0, x)：默认的激活函数，速度快且特性清楚</translation>
    </message>
    <message>
        <source>x for x &gt; 0, negative_slope · x otherwise: a ReLU whose units cannot die</source>
        <translation>x &gt; 0 时为 x，否则为 negative_slope · x：一种单元不会“死亡”的 ReLU</translation>
    </message>
    <message>
        <source>x · Φ(x), a smooth ReLU: the usual choice in Transformers</source>
        <translation>x · Φ(x)，一种平滑的 ReLU：Transformer 中的常用选择</translation>
    </message>
    <message>
        <source>x · sigmoid(x) (Swish), a smooth ReLU used in modern CNNs</source>
        <translation>x · sigmoid(x)（Swish），一种用于现代 CNN 的平滑 ReLU</translation>
    </message>
    <message>
        <source>1 / (1 + e⁻ˣ): squashes to (0, 1); saturates, so avoid it in deep hidden layers</source>
        <translation>1 / (1 + e⁻ˣ)：压缩到 (0, 1)；会饱和，因此避免在深层隐藏层中使用</translation>
    </message>
    <message>
        <source>tanh(x): squashes to (-1, 1), centred at zero; saturates like the sigmoid</source>
        <translation>tanh(x)：压缩到 (-1, 1)，以零为中心；与 sigmoid 一样会饱和</translation>
    </message>
    <message>
        <source>Turns scores into probabilities that sum to 1 over the last dimension (not before CrossEntropy, which applies it itself)</source>
        <translation>将分数转换为在最后一维上和为 1 的概率（不要放在 CrossEntropy 之前，它自身会执行此操作）</translation>
    </message>
    <message>
        <source>Batch normalization of [N, C] or [N, C, L]: each channel standardised over the batch</source>
        <translation>对 [N, C] 或 [N, C, L] 做批归一化：每个通道在批次上标准化</translation>
    </message>
    <message>
        <source>Batch normalization of [N, C, H, W] images: each channel standardised over the batch and the plane</source>
        <translation>对 [N, C, H, W] 图像做批归一化：每个通道在批次和平面上标准化</translation>
    </message>
    <message>
        <source>Layer normalization: each sample standardised over its last dimension; independent of the batch size</source>
        <translation>层归一化：每个样本在其最后一维上标准化；与批大小无关</translation>
    </message>
    <message>
        <source>Group normalization: channels standardised in groups per sample; works with small batches</source>
        <translation>组归一化：每个样本的通道按组标准化；适用于小批次</translation>
    </message>
    <message>
        <source>Keeps the largest value of each window: halves the image with kernel 2</source>
        <translation>保留每个窗口中的最大值：核为 2 时图像减半</translation>
    </message>
    <message>
        <source>Averages each window of the image</source>
        <translation>对图像的每个窗口求平均</translation>
    </message>
    <message>
        <source>The mean of each channel&apos;s whole plane: [N, C, H, W] becomes [N, C], ready for a Linear head</source>
        <translation>每个通道整个平面的均值：[N, C, H, W] 变为 [N, C]，可直接接 Linear 输出头</translation>
    </message>
    <message>
        <source>Joins the dimensions from start_dim on into one: [N, C, H, W] becomes [N, C·H·W]</source>
        <translation>将从 start_dim 开始的各维合并为一维：[N, C, H, W] 变为 [N, C·H·W]</translation>
    </message>
    <message>
        <source>Gives each sample a new shape with the same number of values</source>
        <translation>为每个样本赋予新形状，值的数量保持不变</translation>
    </message>
    <message>
        <source>Adds its inputs element by element (residual connections); the shapes must match</source>
        <translation>将各输入逐元素相加（残差连接）；形状必须一致</translation>
    </message>
    <message>
        <source>Joins its inputs along one axis (channels by default)</source>
        <translation>沿一个轴拼接各输入（默认为通道）</translation>
    </message>
    <message>
        <source>Mean squared error between prediction and target: the loss for regression</source>
        <translation>预测与目标之间的均方误差：用于回归的损失</translation>
    </message>
    <message>
        <source>Binary cross-entropy on logits, for yes/no and multi-label targets; more stable than Sigmoid followed by a BCE</source>
        <translation>基于 logits 的二元交叉熵，用于是/否和多标签目标；比 Sigmoid 后接 BCE 更稳定</translation>
    </message>
    <message>
        <source>Adds a learned bias. Turn it off when a normalization layer follows (its shift does the same).</source>
        <translation>添加一个可学习的偏置。后面接归一化层时请关闭它（归一化层的平移起同样的作用）。</translation>
    </message>
    <message>
        <source>How the weights start. kaiming_normal (the default) or kaiming_uniform for ReLU networks; xavier for tanh or sigmoid; pytorch (uniform ±1/sqrt(fan_in), also for the bias) reproduces a PyTorch recipe; zeros only for tests (every unit would learn the same).</source>
        <translation>权重的初始化方式。ReLU 网络使用 kaiming_normal（默认）或 kaiming_uniform；tanh 或 sigmoid 使用 xavier；pytorch（均匀分布 ±1/sqrt(fan_in)，偏置也如此）复现 PyTorch 的做法；zeros 仅用于测试（每个单元会学到相同的东西）。</translation>
    </message>
    <message>
        <source>Added to the variance before the square root so it is never zero. Keep the default 1e-5.</source>
        <translation>在开平方之前加到方差上，使其永不为零。请保持默认值 1e-5。</translation>
    </message>
    <message>
        <source>Learns a scale and a shift per channel after normalizing. Keep it on unless you know why not.</source>
        <translation>归一化后为每个通道学习一个缩放和一个平移。除非明确知道理由，否则请保持开启。</translation>
    </message>
    <message>
        <source>Zeros added around the image on each side (height, width).</source>
        <translation>在图像每一侧（高度、宽度）周围填充的零。</translation>
    </message>
    <message>
        <source>The input&apos;s features. 0 takes them from the input; a number is checked against it.</source>
        <translation>输入的特征数。0 表示从输入获取；填写数值则会与输入核对。</translation>
    </message>
    <message>
        <source>The output&apos;s features: the layer&apos;s width, or the number of classes for the last layer.</source>
        <translation>输出的特征数：即该层的宽度，或最后一层的类别数。</translation>
    </message>
    <message>
        <source>The input&apos;s channels. 0 takes them from the input; a number is checked against it.</source>
        <translation>输入的通道数。0 表示从输入获取；填写数值则会与输入核对。</translation>
    </message>
    <message>
        <source>The number of filters, so the output&apos;s channels. Often doubled when the image is halved (32, 64, 128).</source>
        <translation>滤波器的数量，即输出的通道数。图像尺寸减半时通常加倍（32, 64, 128）。</translation>
    </message>
    <message>
        <source>The filter&apos;s height and width (one number for both, or &quot;3, 5&quot;). 3 is the usual choice.</source>
        <translation>滤波器的高度和宽度（一个数同时用于两者，或写成 &quot;3, 5&quot;）。通常选 3。</translation>
    </message>
    <message>
        <source>How far the filter moves between outputs; 2 halves the image (instead of a pooling layer).</source>
        <translation>滤波器在相邻两次输出之间移动的距离；2 会使图像减半（可代替池化层）。</translation>
    </message>
    <message>
        <source>Zeros added around the image on each side. kernel_size / 2 (1 for a 3×3 kernel) keeps the size.</source>
        <translation>在图像每一侧周围填充的零。kernel_size / 2（3×3 卷积核为 1）可保持尺寸不变。</translation>
    </message>
    <message>
        <source>The spacing between the filter&apos;s taps: 2 sees a wider area with the same weights.</source>
        <translation>滤波器各抽头之间的间距：2 可用相同的权重覆盖更大的区域。</translation>
    </message>
    <message>
        <source>Splits the channels into groups convolved separately; in and out channels must divide by it. groups = in_channels is a depthwise convolution.</source>
        <translation>将通道分成若干组分别卷积；输入和输出通道数都必须能被它整除。groups = in_channels 即为深度卷积（depthwise）。</translation>
    </message>
    <message>
        <source>The window&apos;s height and width; 2 halves the image.</source>
        <translation>窗口的高度和宽度；2 会使图像减半。</translation>
    </message>
    <message>
        <source>How far the window moves; 0 means the kernel size (windows that do not overlap).</source>
        <translation>窗口移动的距离；0 表示等于核大小（窗口互不重叠）。</translation>
    </message>
    <message>
        <source>Whether padded zeros count in the average at the borders (on: divide by the whole window).</source>
        <translation>在边界处填充的零是否计入平均值（开启：除以整个窗口的大小）。</translation>
    </message>
    <message>
        <source>How fast the running statistics used for evaluation follow the batches: running = (1 - momentum) · running + momentum · batch. 0.1 is the default; with small batches try 0.01 for smoother statistics. Below a batch of about 8, prefer GroupNorm or LayerNorm.</source>
        <translation>用于评估的滑动统计量跟随各批次变化的快慢：running = (1 - momentum) · running + momentum · batch。默认值为 0.1；批次较小时可尝试 0.01，以获得更平滑的统计量。批大小低于约 8 时，建议改用 GroupNorm 或 LayerNorm。</translation>
    </message>
    <message>
        <source>The size of the last dimension. 0 takes it from the input; a number is checked against it.</source>
        <translation>最后一维的大小。0 表示从输入获取；填写数值则会与输入核对。</translation>
    </message>
    <message>
        <source>Learns a scale and a shift per feature after normalizing. Keep it on unless you know why not.</source>
        <translation>归一化后为每个特征学习一个缩放和一个平移。除非明确知道理由，否则请保持开启。</translation>
    </message>
    <message>
        <source>How many groups the channels are split into; the channels must divide by it. 32 (or fewer for narrow layers) is common; 1 is a layer norm over C, H, W.</source>
        <translation>通道被分成的组数；通道数必须能被它整除。常用 32（较窄的层可以更少）；1 相当于在 C, H, W 上做层归一化。</translation>
    </message>
    <message>
        <source>The slope for negative inputs; 0.01 is usual, 0.2 in GANs.</source>
        <translation>负输入的斜率；通常为 0.01，GAN 中常用 0.2。</translation>
    </message>
    <message>
        <source>The dimension that sums to 1. Only the last one is supported: -1.</source>
        <translation>和为 1 的维度。仅支持最后一维：-1。</translation>
    </message>
    <message>
        <source>The share of values dropped while training: 0.1–0.5; after dense layers, not right before batch norm (its statistics would differ between training and evaluation).</source>
        <translation>训练时丢弃的值的比例：0.1–0.5；用在全连接层之后，不要紧接在批归一化之前（否则其统计量在训练和评估时会不一致）。</translation>
    </message>
    <message>
        <source>The first dimension joined; 1 keeps only the batch dimension apart.</source>
        <translation>合并的起始维度；1 表示只让批维度保持独立。</translation>
    </message>
    <message>
        <source>The new shape of one sample, without the batch dimension, e.g. &quot;1, 28, 28&quot;; one -1 is worked out from the rest.</source>
        <translation>单个样本的新形状，不含批维度，例如 &quot;1, 28, 28&quot;；可以有一个 -1，由其余维度推算得出。</translation>
    </message>
    <message>
        <source>The axis joined along (1: channels or features; negative counts from the end). The other dimensions must match; the batch axis 0 cannot be joined.</source>
        <translation>拼接所沿的轴（1：通道或特征；负数表示从末尾倒数）。其他维度必须一致；不能沿批维度 0 拼接。</translation>
    </message>
    <message>
        <source>How many different indices there are (the vocabulary or category count); an index must be below it.</source>
        <translation>不同索引的个数（词表大小或类别数）；索引必须小于该值。</translation>
    </message>
    <message>
        <source>The length of each learned vector.</source>
        <translation>每个学习到的向量的长度。</translation>
    </message>
    <message>
        <source>How the vectors start: normal (standard normal, as PyTorch), xavier_normal or xavier_uniform; zeros only for tests.</source>
        <translation>向量的初始化方式：normal（标准正态分布，与 PyTorch 相同）、xavier_normal 或 xavier_uniform；zeros 仅用于测试。</translation>
    </message>
    <message>
        <source>Moves this share of each target&apos;s probability onto the other classes, so the model is less over-confident; 0.1 is a common start. It raises the loss&apos;s floor, so compare runs with the same value.</source>
        <translation>将每个目标的概率按这一比例分给其他类别，使模型不那么过度自信；0.1 是常见的起始值。它会抬高损失的下限，因此只应比较使用相同取值的各次运行。</translation>
    </message>
    <message>
        <source>One weight per class, e.g. &quot;1, 1, 5&quot;, for imbalanced data: about the inverse class frequency, scaled to a sensible range (too large a weight makes the model over-predict that class). Empty: every class weighs 1.</source>
        <translation>每个类别一个权重，例如 &quot;1, 1, 5&quot;，用于不平衡数据：大约取类别频率的倒数，并缩放到合理范围（权重过大会使模型过多地预测该类别）。留空：每个类别的权重均为 1。</translation>
    </message>
    <message>
        <source>The %1 op</source>
        <translation>%1 算子</translation>
    </message>
    <message>
        <source>Attribute %1 of %2.</source>
        <translation>%2 的属性 %1。</translation>
    </message>
    <message>
        <source>%1 takes no attribute %2.</source>
        <translation>%1 没有属性 %2。</translation>
    </message>
    <message>
        <source>Attribute %1 of %2: %3. %4</source>
        <translation>%2 的属性 %1：%3。%4</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>on or off</source>
        <translation>开或关</translation>
    </message>
    <message>
        <source>a name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>%1 integers, or one for all</source>
        <translation>%1 个整数，或一个整数用于全部</translation>
    </message>
    <message>
        <source>integers separated by commas</source>
        <translation>以逗号分隔的整数</translation>
    </message>
    <message>
        <source>%1 numbers, or one for all</source>
        <translation>%1 个数值，或一个数值用于全部</translation>
    </message>
    <message>
        <source>numbers separated by commas</source>
        <translation>以逗号分隔的数值</translation>
    </message>
    <message>
        <source>Required.</source>
        <translation>必填。</translation>
    </message>
    <message>
        <source>Default: empty.</source>
        <translation>默认：空。</translation>
    </message>
    <message>
        <source>Default: %1.</source>
        <translation>默认：%1。</translation>
    </message>
    <message>
        <source>One of: %1.</source>
        <translation>可选值：%1.</translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation>输入：</translation>
    </message>
    <message>
        <source>No attributes.</source>
        <translation>无属性。</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>Attributes:</source>
        <translation>属性：</translation>
    </message>
    <message>
        <source>x for x &gt; 0, alpha · (eˣ − 1) otherwise: a smooth ReLU whose negative outputs pull the mean towards zero</source>
        <translation>x &gt; 0 时为 x，否则为 alpha · (eˣ − 1)：一种平滑的 ReLU，负输出把均值拉向零</translation>
    </message>
    <message>
        <source>The value large negative inputs approach is −alpha; 1.0 is usual.</source>
        <translation>很大的负输入趋近的值为 −alpha；通常取 1.0。</translation>
    </message>
    <message>
        <source>log(1 + e^(beta · x)) / beta: a smooth ReLU that is always positive, e.g. for an output that must stay above zero</source>
        <translation>log(1 + e^(beta · x)) / beta：一种始终为正的平滑 ReLU，例如用于必须大于零的输出</translation>
    </message>
    <message>
        <source>How sharply it bends: larger values come closer to a ReLU; 1 is usual. Where beta · x &gt; 20 the output is x itself, as in PyTorch.</source>
        <translation>弯曲的陡峭程度：值越大越接近 ReLU；通常取 1。beta · x &gt; 20 时输出直接取 x，与 PyTorch 相同。</translation>
    </message>
    <message>
        <source>x · tanh(softplus(x)): a smooth ReLU close to SiLU, used in YOLO-style detectors</source>
        <translation>x · tanh(softplus(x))：一种接近 SiLU 的平滑 ReLU，用于 YOLO 类检测模型</translation>
    </message>
    <message>
        <source>x · ReLU6(x + 3) / 6: a cheap piecewise stand-in for SiLU, made for mobile networks (MobileNetV3)</source>
        <translation>x · ReLU6(x + 3) / 6：SiLU 的低成本分段近似，为移动端网络设计（MobileNetV3）</translation>
    </message>
    <message>
        <source>1-D convolution over [N, C, L] sequences (time series, audio, token features): learned filters slide along the length</source>
        <translation>对 [N, C, L] 序列（时间序列、音频、词元特征）做一维卷积：可学习的滤波器沿长度方向滑动</translation>
    </message>
    <message>
        <source>The number of filters, so the output&apos;s channels.</source>
        <translation>滤波器的数量，即输出的通道数。</translation>
    </message>
    <message>
        <source>How many neighbouring steps each filter sees; 3 to 7 is usual.</source>
        <translation>每个滤波器看到的相邻步数；通常为 3 到 7。</translation>
    </message>
    <message>
        <source>How far the filter moves between outputs; 2 halves the length.</source>
        <translation>滤波器在相邻两个输出之间移动的距离；2 会使长度减半。</translation>
    </message>
    <message>
        <source>Zeros added at each end of the sequence. kernel_size / 2 (1 for a kernel of 3) keeps the length.</source>
        <translation>在序列两端各补的零。取 kernel_size / 2（核为 3 时取 1）可保持长度不变。</translation>
    </message>
    <message>
        <source>Transposed convolution: each input pixel spreads a learned filter over the output; stride 2 doubles the image (the up-step of decoders and U-Nets)</source>
        <translation>转置卷积：每个输入像素把一个可学习的滤波器铺到输出上；stride 为 2 时图像尺寸加倍（解码器和 U-Net 的上采样步骤）</translation>
    </message>
    <message>
        <source>The output&apos;s channels. Decoders usually halve them as the image doubles (128, 64, 32).</source>
        <translation>输出的通道数。解码器中图像尺寸加倍时通常减半（128, 64, 32）。</translation>
    </message>
    <message>
        <source>The filter&apos;s height and width (one number for both, or &quot;3, 5&quot;). 2 with stride 2 doubles the image exactly; 4 with stride 2 and padding 1 too, with overlapping filters.</source>
        <translation>滤波器的高度和宽度（一个数同时用于两者，或写成 &quot;3, 5&quot;）。2 配 stride 2 时图像尺寸正好加倍；4 配 stride 2 和 padding 1 也加倍，但滤波器相互重叠。</translation>
    </message>
    <message>
        <source>How far apart the input&apos;s pixels land in the output; 2 doubles the image.</source>
        <translation>相邻输入像素在输出中相隔的距离；2 会使图像尺寸加倍。</translation>
    </message>
    <message>
        <source>Rows and columns cropped from each border of the output, as in PyTorch: kernel 3, stride 2, padding 1 and output_padding 1 double the image.</source>
        <translation>从输出的每条边裁掉的行数和列数，与 PyTorch 相同：kernel 3、stride 2、padding 1 加 output_padding 1 时图像尺寸加倍。</translation>
    </message>
    <message>
        <source>Rows and columns added at the bottom and right of the output, to pick between the sizes a stride allows; smaller than the stride.</source>
        <translation>在输出的下边和右边补充的行数和列数，用于在该 stride 允许的几种尺寸中选定一种；必须小于 stride。</translation>
    </message>
    <message>
        <source>Keeps the largest value of each window along a sequence: halves the length with kernel 2</source>
        <translation>沿序列保留每个窗口中的最大值：核为 2 时长度减半</translation>
    </message>
    <message>
        <source>Averages each window along a sequence</source>
        <translation>沿序列对每个窗口求平均</translation>
    </message>
    <message>
        <source>The window&apos;s length; 2 halves the sequence.</source>
        <translation>窗口的长度；2 会使序列长度减半。</translation>
    </message>
    <message>
        <source>Padding added at each end of the sequence; at most half the kernel.</source>
        <translation>在序列两端各补充的长度；最多为核大小的一半。</translation>
    </message>
    <message>
        <source>Enlarges the image by a fixed rule, learning nothing: nearest repeats pixels, bilinear blends neighbours. Often followed by a 3x3 Conv2d in decoders</source>
        <translation>按固定规则放大图像，不学习任何参数：nearest 重复像素，bilinear 混合相邻像素。在解码器中后面常接一个 3x3 Conv2d</translation>
    </message>
    <message>
        <source>nearest repeats each pixel (blocky, exact); bilinear interpolates between the four nearest pixels (smooth), with PyTorch&apos;s align_corners=False.</source>
        <translation>nearest 重复每个像素（呈块状，数值不变）；bilinear 在最近的四个像素之间插值（平滑），与 PyTorch 的 align_corners=False 相同。</translation>
    </message>
    <message>
        <source>How many times taller and wider the output is (one number for both, or &quot;2, 3&quot;).</source>
        <translation>输出的高度和宽度分别是输入的几倍（一个数同时用于两者，或写成 &quot;2, 3&quot;）。</translation>
    </message>
    <message>
        <source>The output&apos;s height and width instead of a scale factor (any size, smaller too); 0 uses scale_factor.</source>
        <translation>直接给出输出的高度和宽度，代替缩放倍数（任意尺寸，也可以更小）；0 表示使用 scale_factor。</translation>
    </message>
    <message>
        <source>Self-attention over the tokens [batch, tokens, channels]: each token takes a weighted mix of all tokens, with weights from how well their keys match its query, in several heads at once. An optional second input, the padding mask [batch, tokens] (1 a real token, 0 padding), keeps padding from being attended to</source>
        <translation>对词元 [batch, tokens, channels] 做自注意力：每个词元取所有词元的加权组合，权重由它的查询（query）与各词元的键（key）的匹配程度决定，多个头同时进行。可选的第二个输入是填充掩码 [batch, tokens]（1 为真实词元，0 为填充），使填充位置不被关注</translation>
    </message>
    <message>
        <source>How many heads attend in parallel, each over channels / heads of the channels (which it must divide). 4–8 are usual; each head can learn another kind of relation.</source>
        <translation>并行关注的头数，每个头使用 channels / heads 个通道（头数必须整除通道数）。常用 4–8；每个头可以学到另一种关系。</translation>
    </message>
    <message>
        <source>The input&apos;s channels (the model width). 0 takes them from the input; a number is checked against it.</source>
        <translation>输入的通道数（模型宽度）。0 表示取自输入；给出数值则与输入核对。</translation>
    </message>
    <message>
        <source>The share of attention weights dropped while training (0.1 is usual in Transformers; 0 for none); evaluation uses them all.</source>
        <translation>训练时丢弃的注意力权重比例（Transformer 中常用 0.1；0 表示不丢弃）；评估时全部使用。</translation>
    </message>
    <message>
        <source>Each token attends only to itself and the tokens before it: on for a language model that predicts the next token, off for an encoder (a classifier, a ViT).</source>
        <translation>每个词元只关注自身及其之前的词元：预测下一个词元的语言模型应打开，编码器（分类器、ViT）应关闭。</translation>
    </message>
    <message>
        <source>Adds learned biases to the query, key, value and output projections, as PyTorch does by default.</source>
        <translation>为查询、键、值和输出投影加上可学习的偏置，与 PyTorch 的默认做法相同。</translation>
    </message>
    <message>
        <source>Softmax cross-entropy of logits against class indices: the loss for classification. Logits [batch, tokens, vocabulary] with targets [batch, tokens] score every position (a language model)</source>
        <translation>logits 对类别索引的 softmax 交叉熵：分类任务的损失。logits 为 [batch, tokens, vocabulary]、目标为 [batch, tokens] 时，对每个位置计分（语言模型）</translation>
    </message>
    <message>
        <source>Targets with this value (padding) add nothing to the loss and are not counted in its mean, as PyTorch&apos;s ignore_index. The default -100 is PyTorch&apos;s.</source>
        <translation>取此值的目标（填充）不计入损失，也不计入其平均，同 PyTorch 的 ignore_index。默认值 -100 与 PyTorch 相同。</translation>
    </message>
    <message>
        <source>Adds to each token [batch, tokens, channels] a vector saying its position, which attention cannot see otherwise. Sinusoidal first; learned with more data</source>
        <translation>给每个词元 [batch, tokens, channels] 加上表示其位置的向量，否则注意力看不到位置。先用正弦编码；数据更多时再用可学习编码</translation>
    </message>
    <message>
        <source>sinusoidal: fixed sines and cosines of every wavelength (nothing to learn, works for any data size); learned: one trained vector per position (needs more data).</source>
        <translation>sinusoidal：各种波长的固定正弦和余弦（无需学习，任何数据量都适用）；learned：每个位置一个训练得到的向量（需要更多数据）。</translation>
    </message>
    <message>
        <source>The longest sequence the table covers; a longer input is refused. The learned table has this many vectors.</source>
        <translation>编码表覆盖的最大序列长度；更长的输入会被拒绝。可学习的编码表有这么多个向量。</translation>
    </message>
    <message>
        <source>Reorders the dimensions of each sample; also the transpose: dims 2, 1 turns [batch, channels, tokens] into [batch, tokens, channels]</source>
        <translation>重新排列每个样本的维度，也用作转置：dims 2, 1 把 [batch, channels, tokens] 变成 [batch, tokens, channels]</translation>
    </message>
    <message>
        <source>The new order of the dimensions after the batch, by their numbers (1 is the first after the batch), e.g. &quot;2, 1&quot; swaps the last two of a rank-3 input. The batch stays first.</source>
        <translation>批维之后各维度的新顺序，用维度编号表示（1 是批维后的第一维），例如 &quot;2, 1&quot; 交换三维输入的最后两维。批维始终在最前。</translation>
    </message>
    <message>
        <source>Multiplies two inputs as matrices, sample by sample: [batch, M, K] times [batch, K, N] gives [batch, M, N] (attention&apos;s scores and weighted sums, built by hand)</source>
        <translation>逐样本把两个输入当作矩阵相乘：[batch, M, K] 乘 [batch, K, N] 得到 [batch, M, N]（手工搭建注意力的分数与加权和）</translation>
    </message>
    <message>
        <source>Keeps the part of the input from start to end along one axis. A node has one output, so a split is several Slices of one input (e.g. queries, keys and values from one projection)</source>
        <translation>沿一个轴保留输入从 start 到 end 的部分。一个节点只有一个输出，所以拆分就是对同一输入的多个 Slice（例如从一个投影中取出查询、键和值）</translation>
    </message>
    <message>
        <source>The axis sliced (negative counts from the end; -1, the default, is the last). The batch axis 0 cannot be sliced.</source>
        <translation>要切片的轴（负数从末尾倒数；默认 -1 为最后一维）。批维 0 不能切片。</translation>
    </message>
    <message>
        <source>The first index kept; negative counts from the end.</source>
        <translation>保留的第一个索引；负数从末尾倒数。</translation>
    </message>
    <message>
        <source>One past the last index kept; negative counts from the end (-1 leaves the last out); 0, the default, runs to the end.</source>
        <translation>保留的最后一个索引之后的位置；负数从末尾倒数（-1 去掉最后一个）；默认 0 表示一直到末尾。</translation>
    </message>
    <message>
        <source>Turns the tokens of each sample [batch, tokens, channels] into one vector [batch, channels] for a classifier. An optional second input, the padding mask [batch, tokens] (1 a real token, 0 padding), keeps padding out of mean, first and last</source>
        <translation>把每个样本的词元 [batch, tokens, channels] 汇聚成一个向量 [batch, channels]，供分类器使用。可选的第二个输入是填充掩码 [batch, tokens]（1 为真实词元，0 为填充），使 mean、first 和 last 不计入填充</translation>
    </message>
    <message>
        <source>mean: the average of the real tokens; first: the first real token (a CLS token put in front); last: the last real token; max: the largest value of each channel (takes no mask).</source>
        <translation>mean：真实词元的平均；first：第一个真实词元（放在最前面的 CLS 词元）；last：最后一个真实词元；max：每个通道的最大值（不接受掩码）。</translation>
    </message>
    <message>
        <source>Turns token ids [batch, tokens] into the padding mask [batch, tokens]: 1 where a token is real, 0 where it is padding. Connect it to the second input of MultiHeadAttention and SequencePool so that padding is neither attended to nor pooled</source>
        <translation>把词元 id [batch, tokens] 变成填充掩码 [batch, tokens]：真实词元处为 1，填充处为 0。把它接到 MultiHeadAttention 和 SequencePool 的第二个输入，填充就既不会被注意，也不会被池化</translation>
    </message>
    <message>
        <source>The token id that pads a text to the context length. Text classification data pads with 0.</source>
        <translation>把文本填充到上下文长度所用的词元 id。文本分类数据用 0 填充。</translation>
    </message>
    <message>
        <source>Weight tying: the name of an Embedding node whose table this layer uses as its weight (a language model&apos;s output layer, as in GPT-2): out_features must be its num_embeddings and the input&apos;s features its embedding_dim. Empty: a weight of its own.</source>
        <translation>权重共享：本层用作权重的 Embedding 节点名称（语言模型的输出层，如 GPT-2）：out_features 须等于其 num_embeddings，输入的特征数须等于其 embedding_dim。留空：使用本层自己的权重。</translation>
    </message>
    <message>
        <source>Long short-term memory over a sequence [batch, time, features]: a cell state carried from step to step, with gates that decide what to keep, add and show; as torch.nn.LSTM (batch_first)</source>
        <translation>长短期记忆网络，作用于序列 [batch, time, features]：细胞状态逐步传递，由门决定保留、加入和输出什么；与 torch.nn.LSTM（batch_first）相同</translation>
    </message>
    <message>
        <source>Gated recurrent unit over a sequence [batch, time, features]: a hidden state updated at every step through reset and update gates; lighter than an LSTM; as torch.nn.GRU (batch_first)</source>
        <translation>门控循环单元，作用于序列 [batch, time, features]：隐藏状态在每一步经重置门和更新门更新；比 LSTM 更轻；与 torch.nn.GRU（batch_first）相同</translation>
    </message>
    <message>
        <source>The input&apos;s features per time step. 0 takes them from the input; a number is checked against it.</source>
        <translation>输入每个时间步的特征数。0 表示取自输入；填写数字则与输入核对。</translation>
    </message>
    <message>
        <source>The size of the hidden state: each direction&apos;s output features per time step (32–256 are usual).</source>
        <translation>隐藏状态的大小：每个方向在每个时间步输出的特征数（常用 32–256）。</translation>
    </message>
    <message>
        <source>Recurrent layers stacked, each reading the sequence the one below outputs. 1–3 are usual.</source>
        <translation>堆叠的循环层数，每层读取下一层输出的序列。常用 1–3。</translation>
    </message>
    <message>
        <source>Also runs each layer backwards in time and puts both directions&apos; features side by side (twice hidden_size). Only where the whole sequence is known in advance, not for forecasting.</source>
        <translation>每层还按时间反向运行一遍，并把两个方向的特征并排（hidden_size 的两倍）。仅用于事先已知整个序列的场合，不用于预测未来。</translation>
    </message>
    <message>
        <source>The share of features dropped between stacked layers while training (not after the last layer; no effect with one layer); 0 for none.</source>
        <translation>训练时在堆叠的层之间丢弃的特征比例（最后一层之后不丢弃；只有一层时无作用）；0 表示不丢弃。</translation>
    </message>
    <message>
        <source>sequence: the last layer&apos;s output at every time step [batch, time, hidden]; last: its final state [batch, hidden] (a backward direction&apos;s final state is at the first time step), for a classifier or a forecast.</source>
        <translation>sequence：最后一层在每个时间步的输出 [batch, time, hidden]；last：其最终状态 [batch, hidden]（反向方向的最终状态位于第一个时间步），用于分类或预测。</translation>
    </message>
    <message>
        <source>Huber loss between prediction and target: squared for errors within delta, linear beyond, so outliers pull less than with MSE (PyTorch&apos;s HuberLoss)</source>
        <translation>预测与目标之间的 Huber 损失：误差在 delta 以内取平方，超出部分取线性，因此离群值的影响小于 MSE（即 PyTorch 的 HuberLoss）</translation>
    </message>
    <message>
        <source>Mean absolute error between prediction and target (L1): a regression loss that outliers pull less than MSE; it fits the median rather than the mean</source>
        <translation>预测与目标之间的平均绝对误差（L1）：受离群值影响小于 MSE 的回归损失；它拟合的是中位数而非均值</translation>
    </message>
    <message>
        <source>Where the loss turns from squared to linear, in the target&apos;s units: errors larger than this count as outliers. 1 is PyTorch&apos;s default</source>
        <translation>损失由平方转为线性的位置，单位与目标相同：大于该值的误差视为离群值。1 是 PyTorch 的默认值</translation>
    </message>
</context>
<context>
    <name>DatasetOpener</name>
    <message>
        <source>Check that the folder holds the dataset&apos;s files, or open another folder (File &gt; Open Dataset…).</source>
        <translation>请检查该文件夹是否包含数据集的文件，或打开另一个文件夹（文件 &gt; 打开数据集…）。</translation>
    </message>
    <message>
        <source>Choose the label and feature columns in the table below, or fix the line named in the message.</source>
        <translation>请在下方表格中选择标签列和特征列，或修正消息中指出的那一行。</translation>
    </message>
    <message>
        <source>The file named in the message is damaged or of another format: download it again, or pick another format if the guess was wrong.</source>
        <translation>消息中指出的文件已损坏或属于其他格式：请重新下载；如果格式猜错了，请选择其他格式。</translation>
    </message>
    <message>
        <source>IDX (MNIST, Fashion-MNIST)</source>
        <translation>IDX（MNIST、Fashion-MNIST）</translation>
    </message>
    <message>
        <source>CIFAR-10 binary batches</source>
        <translation>CIFAR-10 二进制批次</translation>
    </message>
    <message>
        <source>CSV table</source>
        <translation>CSV 表格</translation>
    </message>
    <message>
        <source>Image folder (one sub-folder per class)</source>
        <translation>图像文件夹（每个类别一个子文件夹）</translation>
    </message>
    <message>
        <source>%1: no such file or folder.</source>
        <translation>%1：文件或文件夹不存在。</translation>
    </message>
    <message>
        <source>%1 holds no dataset that can be read: no class folders of images, no IDX or CIFAR-10 files.</source>
        <translation>%1 中没有可读取的数据集：既没有存放图像的类别文件夹，也没有 IDX 或 CIFAR-10 文件。</translation>
    </message>
    <message>
        <source>%1 is not a file of a dataset that can be read (a CSV table, an IDX or CIFAR-10 file, or an image of an image folder).</source>
        <translation>%1 不是可读取的数据集文件（可读取的有：CSV 表格、IDX 或 CIFAR-10 文件，或图像文件夹中的图像）。</translation>
    </message>
    <message>
        <source>%1 For another kind of dataset, pick its format from the Format list and open it again.</source>
        <translation>%1其他类型的数据集：请在格式列表中选择其格式，然后重新打开。</translation>
    </message>
    <message>
        <source>%1 If the message names a file, remove or replace it.</source>
        <translation>%1如果消息中指出了某个文件，请删除或替换该文件。</translation>
    </message>
    <message>
        <source>An image folder holds one sub-folder of images (PNG, JPEG, WebP, TIFF, BMP or GIF) per class (flowers/daisy/1.png, flowers/rose/2.jpg), or train/ and test/ folders that each hold such class folders (flowers/train/daisy/…, flowers/test/daisy/…).</source>
        <translation>图像文件夹中每个类别一个子文件夹，存放图像（PNG、JPEG、WebP、TIFF、BMP 或 GIF）（flowers/daisy/1.png、flowers/rose/2.jpg）；或者包含 train/ 和 test/ 两个文件夹，各自存放这样的类别子文件夹（flowers/train/daisy/…、flowers/test/daisy/…）。</translation>
    </message>
    <message>
        <source>Text (a language model&apos;s corpus)</source>
        <translation>文本（语言模型的语料）</translation>
    </message>
    <message>
        <source>Text folder (one sub-folder or file per class)</source>
        <translation>文本文件夹（每个类别一个子文件夹或文件）</translation>
    </message>
</context>
<context>
    <name>EngineMessage</name>
    <message>
        <source>device auto: %1; training on the CPU</source>
        <translation>设备 auto：%1；改用 CPU 训练</translation>
    </message>
    <message>
        <source>resuming run %1 from %2</source>
        <translation>正在从 %2 恢复运行 %1</translation>
    </message>
    <message>
        <source>forking run %1 from %2</source>
        <translation>正在从 %2 分叉运行 %1</translation>
    </message>
    <message>
        <source>resuming from %1</source>
        <translation>正在从 %1 恢复</translation>
    </message>
    <message>
        <source>forking from %1</source>
        <translation>正在从 %1 分叉</translation>
    </message>
    <message>
        <source>loading %1</source>
        <translation>正在加载 %1</translation>
    </message>
    <message>
        <source>stopped before training started</source>
        <translation>训练开始前已停止</translation>
    </message>
    <message>
        <source>could not save the run: %1</source>
        <translation>无法保存运行：%1</translation>
    </message>
    <message>
        <source>run %1 marks no checkpoint as best (no tracked metric): evaluating the last one</source>
        <translation>运行 %1 没有标记为最佳的检查点（未跟踪指标）：改为评估最后一个检查点</translation>
    </message>
    <message>
        <source>evaluating run %1 at epoch %2 (step %3, %4) on the %5 split: %6</source>
        <translation>正在 %5 划分上评估运行 %1 的第 %2 轮（第 %3 步，%4）：%6</translation>
    </message>
    <message numerus="yes">
        <source>evaluation stopped by request after %1 of %n sample(s); nothing was stored</source>
        <translation>
            <numerusform>评估已按请求停止，已完成 %1/%n 个样本；未保存任何结果</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>evaluation %1 of run %2 (epoch %3) on %n %5 sample(s): %5_acc %6, %5_loss %7</source>
        <translation>
            <numerusform>运行 %2 的评估 %1（第 %3 轮），%n 个 %5 样本：%5_acc %6，%5_loss %7</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the learning-rate finder stopped after %n step(s), too few to suggest a rate; lower min_lr or train on more data</source>
        <translation>
            <numerusform>学习率查找器在 %n 步后停止，步数太少，无法给出建议；请降低 min_lr 或使用更多数据训练</numerusform>
        </translation>
    </message>
    <message>
        <source>parameters %1, gradients %2, optimizer state (%3) %4, activations %5, workspace %6; total %7</source>
        <translation>参数 %1，梯度 %2，优化器状态（%3）%4，激活值 %5，工作区 %6；总计 %7</translation>
    </message>
    <message>
        <source>memory on %1 (planned): parameters %2, gradients %3, optimizer state (%4) %5, activations %6, workspace %7; total %8</source>
        <translation>%1 上的内存（计划）：参数 %2，梯度 %3，优化器状态（%4）%5，激活值 %6，工作区 %7；总计 %8</translation>
    </message>
    <message numerus="yes">
        <source>Overfit sanity mode: training on the same %n batch(es) of %2 every epoch; the loss should go to almost 0.</source>
        <translation>
            <numerusform>过拟合自检模式：每轮都在同样的 %n 个批次（每批 %2 个样本）上训练；损失应降到接近 0。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Overfit sanity mode: training on the same %n batch(es) of %2 every epoch; the loss should go to almost 0. (%3 requested; the split holds fewer.)</source>
        <translation>
            <numerusform>过拟合自检模式：每轮都在同样的 %n 个批次（每批 %2 个样本）上训练；损失应降到接近 0。（请求了 %3 个批次；该划分不够这么多。）</numerusform>
        </translation>
    </message>
    <message>
        <source>metric &apos;%1&apos; is not computed in this run (overfit mode has no validation): early stopping / plateau schedule ignore it</source>
        <translation>本次运行不计算指标“%1”（过拟合模式没有验证）：提前停止和平台期调度将忽略它</translation>
    </message>
    <message>
        <source>metric &apos;%1&apos; is not computed in this run (no validation split): early stopping / plateau schedule ignore it</source>
        <translation>本次运行不计算指标“%1”（没有验证划分）：提前停止和平台期调度将忽略它</translation>
    </message>
    <message numerus="yes">
        <source>Overfit check: training loss %1 -&gt; %2 on %n fixed batch(es). It goes toward 0: the model, loss and optimiser can learn; train on the full data.</source>
        <translation>
            <numerusform>过拟合检查：在 %n 个固定批次上，训练损失 %1 -&gt; %2。损失趋向 0：模型、损失函数和优化器能够学习；请在完整数据上训练。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Overfit check: training loss %1 -&gt; %2 on %n fixed batch(es). It does not go toward 0: check the labels, the learning rate, the input normalisation and that the loss matches the model output; or train for more epochs.</source>
        <translation>
            <numerusform>过拟合检查：在 %n 个固定批次上，训练损失 %1 -&gt; %2。损失没有趋向 0：请检查标签、学习率、输入归一化，以及损失函数是否与模型输出相符；或训练更多轮。</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped by request at step %1 (epoch %2)</source>
        <translation>已按请求在第 %1 步停止（第 %2 轮）</translation>
    </message>
    <message>
        <source>stopped by request during evaluation (epoch %1)</source>
        <translation>已按请求在评估期间停止（第 %1 轮）</translation>
    </message>
    <message numerus="yes">
        <source>early stop after epoch %1: %2 did not improve by more than %3 for %n epoch(s); best %5 at epoch %6</source>
        <translation>
            <numerusform>第 %1 轮后提前停止：%2 已连续 %n 轮改进未超过 %3；最佳值 %5 出现在第 %6 轮</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>finished %n epoch(s) at step %2</source>
        <translation>
            <numerusform>训练了 %n 轮，于第 %2 步结束</numerusform>
        </translation>
    </message>
    <message>
        <source>the checkpoint&apos;s optimizer state does not fit this optimizer (%1): it starts fresh</source>
        <translation>检查点中的优化器状态与当前优化器不匹配（%1）：优化器状态将从头开始</translation>
    </message>
    <message>
        <source>the batch size changed: the fork starts at the next epoch</source>
        <translation>批大小已改变：分叉运行从下一轮开始</translation>
    </message>
    <message>
        <source>resumed from %1 at epoch %2, batch %3, step %4</source>
        <translation>已从 %1 恢复：第 %2 轮，第 %3 批，第 %4 步</translation>
    </message>
    <message>
        <source>forked from %1 at epoch %2, batch %3, step %4</source>
        <translation>已从 %1 分叉：第 %2 轮，第 %3 批，第 %4 步</translation>
    </message>
    <message numerus="yes">
        <source>the checkpoint is at the end of training (%1 of %n epoch(s) done): nothing is left to train; raise the epochs (--epochs N) to train more</source>
        <translation>
            <numerusform>检查点已处于训练末尾（已完成 %1/%n 轮）：没有剩余的训练；请增加轮数（--epochs N）以继续训练</numerusform>
        </translation>
    </message>
    <message>
        <source>paused at step %1</source>
        <translation>已在第 %1 步暂停</translation>
    </message>
    <message>
        <source>resumed at step %1</source>
        <translation>已在第 %1 步继续</translation>
    </message>
    <message>
        <source>the loss became NaN at step %1 (epoch %2, batch %3): step skipped, parameters unchanged (training.skip_non_finite_loss)</source>
        <translation>第 %1 步（第 %2 轮，第 %3 批）损失变为 NaN：已跳过该步，参数未改变（training.skip_non_finite_loss）</translation>
    </message>
    <message>
        <source>the loss became infinite at step %1 (epoch %2, batch %3): step skipped, parameters unchanged (training.skip_non_finite_loss)</source>
        <translation>第 %1 步（第 %2 轮，第 %3 批）损失变为无穷大：已跳过该步，参数未改变（training.skip_non_finite_loss）</translation>
    </message>
    <message>
        <source>the gradient norm became non-finite at step %1 (epoch %2, batch %3): step skipped, parameters unchanged (training.skip_non_finite_loss)</source>
        <translation>第 %1 步（第 %2 轮，第 %3 批）梯度范数变为非有限值：已跳过该步，参数未改变（training.skip_non_finite_loss）</translation>
    </message>
    <message>
        <source>f16: gradients overflowed at step %1 with loss scale %2; step skipped, loss scale now %3</source>
        <translation>f16：第 %1 步在损失缩放 %2 下梯度溢出；已跳过该步，损失缩放现为 %3</translation>
    </message>
    <message numerus="yes">
        <source>training %1 on %2: %3, epochs %4 to %5, %n step(s) of batch %7</source>
        <translation>
            <numerusform>在 %2 上训练 %1：%3，第 %4 至 %5 轮，共 %n 步，批大小 %7</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>training %1 on %2: %3, epochs %4 to %5, %n step(s) of batch %7 x %8 accumulated</source>
        <translation>
            <numerusform>在 %2 上训练 %1：%3，第 %4 至 %5 轮，共 %n 步，批大小 %7 × %8（梯度累积）</numerusform>
        </translation>
    </message>
    <message>
        <source>epoch %1 done in %2 s: %3</source>
        <translation>第 %1 轮完成，用时 %2 秒：%3</translation>
    </message>
    <message>
        <source>epoch %1 done in %2 s (paused %3 s): %4</source>
        <translation>第 %1 轮完成，用时 %2 秒（暂停 %3 秒）：%4</translation>
    </message>
    <message>
        <source>checkpoint saved: %1</source>
        <translation>已保存检查点：%1</translation>
    </message>
    <message>
        <source>checkpoint saved: %1 (best)</source>
        <translation>已保存检查点：%1（最佳）</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>stopped early</source>
        <translation>已提前停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>the process ended without finishing the run (crashed or killed); last sign of life at the end time</source>
        <translation>进程在运行完成前结束（崩溃或被终止）；结束时间为最后一次活动的时间</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message numerus="yes">
        <source>learning-rate range test over %n step(s) (%2 to %3): suggested lr %4, the median of three rules (steepest descent at %5, lowest loss at %6 / 10, valley at %7)</source>
        <translation>
            <numerusform>学习率范围测试共 %n 步（%2 到 %3）：建议学习率 %4，为三条规则的中位数（下降最陡处 %5，最低损失处 %6 ÷ 10，谷值 %7）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>learning-rate range test over %n step(s) (%2 to %3, stopped when the loss diverged): suggested lr %4, the median of three rules (steepest descent at %5, lowest loss at %6 / 10, valley at %7)</source>
        <translation>
            <numerusform>学习率范围测试共 %n 步（%2 到 %3，损失发散后停止）：建议学习率 %4，为三条规则的中位数（下降最陡处 %5，最低损失处 %6 ÷ 10，谷值 %7）</numerusform>
        </translation>
    </message>
    <message>
        <source>the rules disagree by %1x (steepest descent %2, lowest loss / 10 %3, valley %4): the curve has no clear answer; repeat the test over several seeds or with more steps</source>
        <translation>各规则相差 %1 倍（下降最陡 %2，最低损失 ÷ 10 %3，谷值 %4）：曲线没有明确答案；请用多个种子或更多步数重复测试</translation>
    </message>
    <message numerus="yes">
        <source>sweep %1: %n trial(s) (%3 search), ranked by %4</source>
        <translation>
            <numerusform>扫描 %1：%n 个试验（%3 搜索），按 %4 排名</numerusform>
        </translation>
    </message>
    <message>
        <source>successive halving: rungs at epochs %1, each keeping the best 1/%2</source>
        <translation>逐次减半：在第 %1 轮设检查点，每级保留最好的 1/%2</translation>
    </message>
    <message>
        <source>trial %1: %2</source>
        <translation>试验 %1：%2</translation>
    </message>
    <message>
        <source>trial %1 skipped: it plans %2 of memory, more than the %3 of %4 (%5)</source>
        <translation>已跳过试验 %1：它计划使用 %2 内存，超过 %4 的 %3（%5）</translation>
    </message>
    <message>
        <source>trial %1 skipped: %2</source>
        <translation>已跳过试验 %1：%2</translation>
    </message>
    <message>
        <source>trial %1, rung %2: training to epoch %3</source>
        <translation>试验 %1，第 %2 级：训练到第 %3 轮</translation>
    </message>
    <message>
        <source>trial %1, rung %2: resuming from its last checkpoint to epoch %3</source>
        <translation>试验 %1，第 %2 级：从最近的检查点继续训练到第 %3 轮</translation>
    </message>
    <message>
        <source>trial %1 at epoch %2: %3 %4</source>
        <translation>试验 %1 第 %2 轮：%3 %4</translation>
    </message>
    <message>
        <source>trial %1 reached epoch %2 before (its newest run: %3): %4 %5</source>
        <translation>试验 %1 之前已达到第 %2 轮（最新运行：%3）：%4 %5</translation>
    </message>
    <message>
        <source>trial %1 failed: %2</source>
        <translation>试验 %1 失败：%2</translation>
    </message>
    <message numerus="yes">
        <source>rung %1 (epoch %2): %3 of %n trial(s) go on: %5</source>
        <translation>
            <numerusform>第 %1 级（第 %2 轮）：%n 个试验中 %3 个继续：%5</numerusform>
        </translation>
    </message>
    <message>
        <source>best: trial %1 (%2): %3 %4 at epoch %5, run %6</source>
        <translation>最佳：试验 %1（%2）：第 %5 轮 %3 %4，运行 %6</translation>
    </message>
    <message>
        <source>trial %1 reports no %2, which the sweep ranks by (its metrics: %3): set sweep.metric to one of them</source>
        <translation>试验 %1 没有报告扫描用于排名的 %2（它的指标：%3）：请把 sweep.metric 设为其中之一</translation>
    </message>
    <message>
        <source>sweep stopped: run it again to continue where it stopped</source>
        <translation>扫描已停止：再次运行即可从停下的地方继续</translation>
    </message>
    <message numerus="yes">
        <source>sweep %1 finished in %2 s: %n trial(s) (%4 skipped, %5 failed); training jobs run now: %6</source>
        <translation>
            <numerusform>扫描 %1 用时 %2 秒完成：%n 个试验（跳过 %4 个，失败 %5 个）；本次运行的训练作业：%6</numerusform>
        </translation>
    </message>
    <message>
        <source>sweep %1 has no result: every trial was skipped or failed</source>
        <translation>扫描 %1 没有结果：所有试验都被跳过或失败</translation>
    </message>
    <message>
        <source>label overlay: %1 relabelled, %2 excluded (the dataset files are unchanged)</source>
        <translation>标签覆盖层：重新标注 %1 个，排除 %2 个（数据集文件未改动）</translation>
    </message>
    <message>
        <source>fold %1 of %2: training on %3 samples, predicting %4</source>
        <translation>第 %1 折（共 %2 折）：用 %3 个样本训练，预测 %4 个</translation>
    </message>
    <message>
        <source>label check stopped by request in fold %1 of %2; nothing was stored</source>
        <translation>标签检查已按请求在第 %1 折（共 %2 折）停止；未保存任何结果</translation>
    </message>
    <message>
        <source>label check %1 (%2) in %3 s: %4 of %5 training samples suspect; trainstudio-cli data labels shows the list</source>
        <translation>标签检查 %1（%2）用时 %3 秒：%5 个训练样本中有 %4 个标签可疑；trainstudio-cli data labels 可显示列表</translation>
    </message>
    <message>
        <source>the newest checkpoint of run %1, %2 (%3), is incomplete: %4 is missing. Resuming from the newest complete one instead: %5</source>
        <translation>运行 %1 的最新检查点 %2（%3）不完整：缺少 %4。改为从最新的完整检查点继续：%5</translation>
    </message>
    <message>
        <source>Training diverged: the loss became NaN at step %1 (epoch %2, batch %3). Things to try:
  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);
  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);
  - check the labels (integers in [0, %6));
  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);
  - check the initialisation (Kaiming for ReLU layers).
Or set training.skip_non_finite_loss to skip such steps.</source>
        <translation>训练发散：损失在第 %1 步（第 %2 轮，第 %3 批）变为 NaN。尝试以下方法：
  - 降低学习率（当前为 %4；试试 %5，即低 10 倍，或加入预热）；
  - 检查输入归一化（输入均值接近 0、方差接近 1；数据中没有 NaN/inf）；
  - 检查标签（取值为 [0, %6) 内的整数）；
  - 启用梯度裁剪（training.clip_grad_norm，例如 1.0）；
  - 检查初始化（ReLU 层用 Kaiming 初始化）。
或者设置 training.skip_non_finite_loss 以跳过这样的步。</translation>
    </message>
    <message>
        <source>Training diverged: the loss became infinite at step %1 (epoch %2, batch %3). Things to try:
  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);
  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);
  - check the labels (integers in [0, %6));
  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);
  - check the initialisation (Kaiming for ReLU layers).
Or set training.skip_non_finite_loss to skip such steps.</source>
        <translation>训练发散：损失在第 %1 步（第 %2 轮，第 %3 批）变为无穷大。尝试以下方法：
  - 降低学习率（当前为 %4；试试 %5，即低 10 倍，或加入预热）；
  - 检查输入归一化（输入均值接近 0、方差接近 1；数据中没有 NaN/inf）；
  - 检查标签（取值为 [0, %6) 内的整数）；
  - 启用梯度裁剪（training.clip_grad_norm，例如 1.0）；
  - 检查初始化（ReLU 层用 Kaiming 初始化）。
或者设置 training.skip_non_finite_loss 以跳过这样的步。</translation>
    </message>
    <message>
        <source>Training diverged: the gradient norm became non-finite at step %1 (epoch %2, batch %3). Things to try:
  - lower the learning rate (it is %4; try %5, 10x lower, or add warm-up);
  - check the input normalisation (inputs near zero mean and unit variance; no NaN/inf in the data);
  - check the labels (integers in [0, %6));
  - enable gradient clipping (training.clip_grad_norm, e.g. 1.0);
  - check the initialisation (Kaiming for ReLU layers).
Or set training.skip_non_finite_loss to skip such steps.</source>
        <translation>训练发散：梯度范数在第 %1 步（第 %2 轮，第 %3 批）变为非有限值。尝试以下方法：
  - 降低学习率（当前为 %4；试试 %5，即低 10 倍，或加入预热）；
  - 检查输入归一化（输入均值接近 0、方差接近 1；数据中没有 NaN/inf）；
  - 检查标签（取值为 [0, %6) 内的整数）；
  - 启用梯度裁剪（training.clip_grad_norm，例如 1.0）；
  - 检查初始化（ReLU 层用 Kaiming 初始化）。
或者设置 training.skip_non_finite_loss 以跳过这样的步。</translation>
    </message>
    <message>
        <source>The loss or the gradients became NaN or infinite at step %1 (epoch %2) with learning rate %3; training cannot recover from that. Resume from the last good checkpoint with the learning rate x0.1 (optimizer.lr %4), or add warm-up or gradient clipping (training.clip_grad_norm: 1.0). If it happens in the first steps, look for NaN or infinite values in the data and check the input normalisation.</source>
        <translation>损失或梯度在第 %1 步（第 %2 轮）、学习率 %3 时变为 NaN 或无穷大，训练无法从中恢复。请从最后一个正常的检查点以 0.1 倍学习率（optimizer.lr %4）继续训练，或加入学习率预热、梯度裁剪（training.clip_grad_norm: 1.0）。如果在最初几步就出现，请检查数据中是否有 NaN 或无穷大的值，并检查输入归一化。</translation>
    </message>
    <message numerus="yes">
        <source>The loss has not improved over the first %n step(s) (%2 at the start, %3 lately). Go through the not-converging checklist: look at samples and their labels; check that the loss suits the task and the model&apos;s output; find a learning rate (the finder; 1e-3 or 1e-4 are safe starts); check the initialisation (Kaiming for ReLU layers, never all zeros); watch the gradient norm (vanishing or exploding); check the input normalisation (mean near 0, standard deviation near 1).</source>
        <translation>
            <numerusform>前 %n 步内损失没有下降（开始时 %2，最近 %3）。请按不收敛排查清单逐项检查：抽样查看样本及其标签；检查损失函数是否匹配任务和模型输出；找一个合适的学习率（学习率查找器；1e-3 或 1e-4 是稳妥的起点）；检查初始化（ReLU 层用 Kaiming，切勿全零）；观察梯度范数（是否消失或爆炸）；检查输入归一化（均值接近 0，标准差接近 1）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The loss is rising: from %1 to %2 over the last %n step(s), at a high learning rate (%4). Lower the learning rate (3 to 10 times; the finder suggests one) or warm it up over the first few hundred steps (schedule.warmup_steps).</source>
        <translation>
            <numerusform>损失在上升：最近 %n 步内从 %1 升到 %2，而学习率偏高（%4）。请把学习率降低 3 到 10 倍（学习率查找器会给出建议），或在最初几百步做预热（schedule.warmup_steps）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The loss jumps between %2 and %3 within %n step(s) at a high learning rate (%4): the steps overshoot. Lower the learning rate (3 to 10 times; the finder suggests one) or warm it up (schedule.warmup_steps).</source>
        <translation>
            <numerusform>在 %n 步内损失在 %2 和 %3 之间来回跳动，学习率偏高（%4）：每一步都迈得过头。请把学习率降低 3 到 10 倍（学习率查找器会给出建议），或加入预热（schedule.warmup_steps）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The gradient norm was above 10 in %1 of the last %2 steps (median %3): the seeds&apos; sign of a learning rate that is too high or of a poor initialisation. Enable gradient clipping (training.clip_grad_norm: 1.0 is the usual start), lower the learning rate, and check the initialisation (Kaiming for ReLU layers).</source>
        <translation>最近 %2 步中有 %1 步梯度范数超过 10（中位数 %3）：这通常说明学习率太大或初始化不当。请启用梯度裁剪（training.clip_grad_norm，常从 1.0 开始），降低学习率，并检查初始化（ReLU 层用 Kaiming）。</translation>
    </message>
    <message>
        <source>The gradient norm was below 1e-4 in %1 of the last %2 steps (median %3) while the loss is still %4: the gradients vanish before they reach the first layers. Check the initialisation (Kaiming for ReLU layers), prefer ReLU to sigmoid or tanh in deep stacks, add normalisation layers, or raise the learning rate.</source>
        <translation>最近 %2 步中有 %1 步梯度范数低于 1e-4（中位数 %3），而损失仍为 %4：梯度在传到前面的层之前就消失了。请检查初始化（ReLU 层用 Kaiming），深层网络优先用 ReLU 而不是 sigmoid 或 tanh，加入归一化层，或提高学习率。</translation>
    </message>
    <message numerus="yes">
        <source>%1 rose for %n epoch(s) in a row (%3 -&gt; %4) while the training loss fell (%5 -&gt; %6): the model is overfitting; its best epoch so far is %7. Use early stopping (patience 5 to 10 epochs; the best checkpoint is kept), weight decay (AdamW with 0.01 to 0.1), data augmentation (random crop, flip), dropout or label smoothing (0.1).</source>
        <translation>
            <numerusform>%1 连续 %n 轮上升（%3 -&gt; %4），而训练损失在下降（%5 -&gt; %6）：模型正在过拟合，目前最好的是第 %7 轮。请使用早停（耐心值 5 到 10 轮；会保留最好的检查点）、权重衰减（AdamW，0.01 到 0.1）、数据增强（随机裁剪、翻转）、Dropout 或标签平滑（0.1）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The training waited for data %1% of the time (above 30%): the loader starves the device. Raise dataset.loader.num_workers (now %2; the seeds suggest half to two thirds of the physical cores, and this machine has %3 logical cores), decode once with the sample cache (dataset.loader.cache: true), and keep only the random augmentations per sample.</source>
        <translation>训练有 %1% 的时间在等待数据（超过 30%）：数据加载跟不上设备。请增大 dataset.loader.num_workers（当前 %2；建议设为物理核心数的一半到三分之二，本机有 %3 个逻辑核心），用样本缓存只解码一次（dataset.loader.cache: true），每个样本只保留随机增强。</translation>
    </message>
    <message>
        <source>Allocated memory grew at the end of each of the last %3 epochs (%1 -&gt; %2): something keeps memory alive, a leak rather than fragmentation (when allocated grows, tensors are not freed; when only reserved grows, it is the cache). The training plan is fixed, so your experiment is not the cause: please report it with this run&apos;s log.</source>
        <translation>最近 %3 轮每轮结束时已分配内存都在增长（%1 -&gt; %2）：有东西一直占着内存，这是泄漏而不是碎片（allocated 增长说明张量没有释放；只有 reserved 增长则是缓存）。训练的内存计划是固定的，原因不在你的实验：请附上本次运行的日志报告此问题。</translation>
    </message>
    <message>
        <source>After epoch %3 the allocator holds %1 while %2 is allocated: the rest is cached or fragmented blocks, not a leak (allocated memory is steady). Later allocations reuse it, and it is released and retried when memory runs short; other programs see less free memory meanwhile.</source>
        <translation>第 %3 轮结束后分配器占用 %1，而已分配的只有 %2：其余是缓存或碎片块，不是泄漏（已分配内存保持稳定）。之后的分配会复用它们，内存不足时会释放后重试；在此期间其他程序看到的可用内存会变少。</translation>
    </message>
    <message numerus="yes">
        <source>Batch norm (%1) normalises over batches of %n sample(s), fewer than 8: its statistics are too noisy (the seeds&apos; limit). Use a batch of 8 or more, replace it with GroupNorm or LayerNorm, or lower its momentum to 0.01.</source>
        <translation>
            <numerusform>批归一化（%1）在每批 %n 个样本上做归一化，少于 8 个：统计量噪声太大。请使用 8 个或更多样本的批，改用 GroupNorm 或 LayerNorm，或把它的 momentum 调小到 0.01。</numerusform>
        </translation>
    </message>
    <message>
        <source>Batch norm %1 comes right after dropout %2: dropout changes the variance batch norm sees between training and evaluation, so its running statistics do not fit at test time. Use one of the two, move the dropout after the last batch norm, or use GroupNorm instead.</source>
        <translation>批归一化 %1 紧跟在 Dropout %2 之后：Dropout 使批归一化在训练和评估时看到的方差不同，它的滑动统计量在测试时就不再适用。请二者只用其一，把 Dropout 移到最后一个批归一化之后，或改用 GroupNorm。</translation>
    </message>
    <message>
        <source>Gradient accumulation (%3 micro-batches of %2) trains like a batch of %4, but batch norm (%1) still normalises each micro-batch of %2: accumulation does not replace a real large batch for it. Use GroupNorm or LayerNorm, or a larger micro-batch (mixed precision or activation checkpointing frees memory for one).</source>
        <translation>梯度累积（%3 个大小为 %2 的微批）的训练效果相当于大小为 %4 的批，但批归一化（%1）仍按每个 %2 的微批计算统计量：对它来说，累积代替不了真正的大批。请改用 GroupNorm 或 LayerNorm，或使用更大的微批（混合精度或激活检查点可以腾出内存）。</translation>
    </message>
    <message>
        <source>The fp16 loss scale keeps falling (%1 -&gt; %2, %3 overflows by step %4): gradients overflow even as the scale shrinks, a sign of numerical instability rather than of the scale&apos;s search. Look for divisions by zero or the log of zero, lower the learning rate, or train in bf16 (training.precision: bf16), whose range is that of f32.</source>
        <translation>fp16 损失缩放因子持续下降（%1 -&gt; %2，到第 %4 步已溢出 %3 次）：缩放因子越来越小梯度仍然溢出，这说明存在数值不稳定，而不是缩放因子在寻找合适的值。请检查是否有除零或对零取对数，降低学习率，或改用 bf16 训练（training.precision: bf16），它的数值范围与 f32 相同。</translation>
    </message>
    <message>
        <source>The training classes are imbalanced (%1:1; &apos;%2&apos; has %3 samples, &apos;%4&apos; %5) and the run is judged by %6, an accuracy: on imbalanced data accuracy misleads, since predicting the large classes already scores well. Look at macro F1 and AUC (evaluate the run), and weight the loss by inverse class frequency (CrossEntropy class_weights) or use the class-balanced sampler (dataset.loader.sampler: class_balanced).</source>
        <translation>训练数据的类别不平衡（%1:1；“%2”有 %3 个样本，“%4”只有 %5 个），而本次运行以准确率 %6 作为评判指标：在不平衡数据上准确率会误导人，因为只预测大类就能得到不错的分数。请查看宏平均 F1 和 AUC（评估本次运行），并按类别频率的倒数给损失加权（CrossEntropy class_weights），或使用类别均衡采样器（dataset.loader.sampler: class_balanced）。</translation>
    </message>
    <message>
        <source>cannot write the run to its workspace: %1. Training is paused and the store tries again every %2 s; it continues by itself once the database can be written (free disk space), or stop the run (nothing queued is lost while it waits)</source>
        <translation>无法将运行写入其工作区：%1。训练已暂停，存储每 %2 秒重试一次；一旦数据库可以写入（请释放磁盘空间），训练会自动继续；也可以停止运行（等待期间排队的数据不会丢失）</translation>
    </message>
    <message>
        <source>the workspace&apos;s database can be written again: training continues</source>
        <translation>工作区的数据库又可以写入了：训练继续</translation>
    </message>
    <message>
        <source>label check: fold %1 of %2</source>
        <translation>标签检查：第 %1 折，共 %2 折</translation>
    </message>
    <message>
        <source>label check: ranking</source>
        <translation>标签检查：排序</translation>
    </message>
    <message>
        <source>evaluating %1</source>
        <translation>正在评估 %1</translation>
    </message>
    <message>
        <source>reading %1</source>
        <translation>正在读取 %1</translation>
    </message>
    <message>
        <source>near duplicates</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <source>reading the table</source>
        <translation>正在读取表格</translation>
    </message>
    <message>
        <source>data check: %1 unreadable, %2 exact duplicates, %3 exact leaks across splits</source>
        <translation>数据检查：%1 个无法读取，%2 个完全重复，%3 个跨划分完全泄漏</translation>
    </message>
    <message>
        <source>data check: %1 unreadable, %2 exact duplicates, %3 exact leaks across splits, %4 near duplicates and %5 near leaks (within %6 bits)</source>
        <translation>数据检查：%1 个无法读取，%2 个完全重复，%3 个跨划分完全泄漏，%4 个近似重复和 %5 个近似泄漏（%6 位以内）</translation>
    </message>
    <message>
        <source>stored check %1 is current (the files are unchanged; --force checks again): %2 unreadable, %3 exact duplicates, %4 exact leaks, %5 near duplicates, %6 near leaks</source>
        <translation>已保存的检查 %1 仍然有效（文件未变；--force 会重新检查）：%2 个无法读取，%3 个完全重复，%4 个完全泄漏，%5 个近似重复，%6 个近似泄漏</translation>
    </message>
    <message>
        <source>the data check was stopped; nothing was stored</source>
        <translation>数据检查已停止；未保存任何结果</translation>
    </message>
    <message numerus="yes">
        <source>computing with %n CPU thread(s): the cores other programs leave idle, followed during the run (training.threads: 0, automatic)</source>
        <translation>
            <numerusform>使用 %n 个 CPU 线程计算：即其他程序空出的核心数，训练中随之调整（training.threads: 0，自动）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>computing with %n CPU thread(s) (training.threads)</source>
        <translation>
            <numerusform>使用 %n 个 CPU 线程计算（training.threads）</numerusform>
        </translation>
    </message>
    <message>
        <source>CPU threads now %1: other programs&apos; use of the cores changed (the results do not depend on it)</source>
        <translation>CPU 线程数现为 %1：其他程序占用的核心有变化（结果与线程数无关）</translation>
    </message>
    <message>
        <source>run %1 marks no checkpoint as best (no tracked metric): exporting the last one</source>
        <translation>运行 %1 没有标记最佳检查点（没有跟踪的指标）：导出最后一个检查点</translation>
    </message>
    <message>
        <source>the model&apos;s metadata has no class names: the dataset could not be read (%1)</source>
        <translation>模型元数据中没有类别名称：无法读取数据集（%1）</translation>
    </message>
    <message>
        <source>the model&apos;s metadata has no class names and no normalisation: the dataset could not be read (%1)</source>
        <translation>模型元数据中没有类别名称，也没有归一化参数：无法读取数据集（%1）</translation>
    </message>
    <message>
        <source>run %1 marks no checkpoint as best (no tracked metric): predicting with the last one</source>
        <translation>运行 %1 没有标记最佳检查点（没有跟踪的指标）：使用最后一个检查点预测</translation>
    </message>
    <message numerus="yes">
        <source>%1: the %2x%3 image was converted to %4x%5 with %n channel(s), as the experiment&apos;s image_shape converts its training images</source>
        <translation>
            <numerusform>%1：%2x%3 的图像已转换为 %4x%5、%n 个通道，与实验的 image_shape 转换训练图像的方式相同</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: labels read from %2</source>
        <translation>%1：标签读取自 %2</translation>
    </message>
    <message>
        <source>No finished run of %1 yet: open the starting experiment and train it.</source>
        <translation>%1 还没有完成的运行：打开起始实验并训练它。</translation>
    </message>
    <message>
        <source>No health check of %1 yet: run Check on the Datasets page (or trainstudio-cli data check).</source>
        <translation>%1 还没有健康检查：在“数据集”页运行检查（或 trainstudio-cli data check）。</translation>
    </message>
    <message>
        <source>The health check found %1 exact and %2 near duplicates; now mark at least one sample on the Datasets page: exclude a duplicate or relabel a wrong label.</source>
        <translation>健康检查发现 %1 个完全重复和 %2 个近似重复；现在在“数据集”页至少标记一个样本：排除一个重复样本，或改正一个错误标签。</translation>
    </message>
    <message numerus="yes">
        <source>The health check found %1 exact and %2 near duplicates, and you marked %n sample(s) (%4 excluded, %5 relabelled).</source>
        <translation>
            <numerusform>健康检查发现 %1 个完全重复和 %2 个近似重复，你标记了 %n 个样本（排除 %4 个，改标 %5 个）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>None of your %n finished run(s) trains in overfit mode: set training.overfit_batches to 1 and train.</source>
        <translation>
            <numerusform>你完成的 %n 次运行都不是过拟合模式：把 training.overfit_batches 设为 1 再训练。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Run %1 trained on %n fixed batch(es): training loss %3 -&gt; %4, below %5.</source>
        <translation>
            <numerusform>运行 %1 在 %n 个固定批次上训练：训练损失 %3 -&gt; %4，低于 %5。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Run %1 trained on %n fixed batch(es): training loss %3 -&gt; %4, not below %5 yet; train more epochs or raise the learning rate.</source>
        <translation>
            <numerusform>运行 %1 在 %n 个固定批次上训练：训练损失 %3 -&gt; %4，尚未低于 %5；多训练几轮或提高学习率。</numerusform>
        </translation>
    </message>
    <message>
        <source>Train the starting experiment once as shipped (optimizer.lr %1): it is the baseline to beat.</source>
        <translation>先按原样训练一次起始实验（optimizer.lr %1）：它是要超越的基线。</translation>
    </message>
    <message>
        <source>The shipped learning rate %1 reached %2 %3 (run %4). Now find a better rate (the finder on the Hyperparameters page) and train with it.</source>
        <translation>自带的学习率 %1 达到 %2 %3（运行 %4）。现在找一个更好的学习率（“超参数”页的学习率查找器）并用它训练。</translation>
    </message>
    <message>
        <source>Run %1 with lr %2 reached %3 %4, against %5 at the shipped lr %6 (run %7); %8 or lower was the goal.</source>
        <translation>运行 %1 用学习率 %2 达到 %3 %4，自带学习率 %6 为 %5（运行 %7）；目标是 %8 或更低。</translation>
    </message>
    <message>
        <source>Your best run with another rate, run %1 (lr %2), reached %3 %4, against %5 at the shipped lr %6 (run %7); %8 or lower is the goal.</source>
        <translation>你用其他学习率的最好运行是运行 %1（学习率 %2），达到 %3 %4，自带学习率 %6 为 %5（运行 %7）；目标是 %8 或更低。</translation>
    </message>
    <message>
        <source>Train the starting MLP once first: its accuracy is the score to beat.</source>
        <translation>先训练一次起始的 MLP：它的准确率就是要超越的分数。</translation>
    </message>
    <message>
        <source>The MLP (run %1) reached %2 %3. Build a CNN on the Model page (Conv2d layers) and train it.</source>
        <translation>MLP（运行 %1）达到 %2 %3。在“模型”页搭建一个 CNN（Conv2d 层）并训练它。</translation>
    </message>
    <message>
        <source>Your CNN, run %1, reached %2 %3, above the MLP&apos;s %4 (run %5).</source>
        <translation>你的 CNN（运行 %1）达到 %2 %3，高于 MLP 的 %4（运行 %5）。</translation>
    </message>
    <message>
        <source>Your best CNN, run %1, reached %2 %3, not above the MLP&apos;s %4 (run %5) yet.</source>
        <translation>你最好的 CNN（运行 %1）达到 %2 %3，尚未高于 MLP 的 %4（运行 %5）。</translation>
    </message>
    <message>
        <source>Train the starting experiment once as shipped (random sampler): its macro F1 is the baseline.</source>
        <translation>先按原样训练一次起始实验（随机采样器）：它的宏平均 F1 是基线。</translation>
    </message>
    <message>
        <source>The baseline (run %1) has macro F1 %2. Now train with dataset.loader.sampler class_balanced, or weighted with class_weights.</source>
        <translation>基线（运行 %1）的宏平均 F1 为 %2。现在把 dataset.loader.sampler 设为 class_balanced，或设为 weighted 并给出 class_weights，再训练。</translation>
    </message>
    <message>
        <source>Run %1 (sampler %2) reached macro F1 %3, against the baseline&apos;s %4 (run %5): %6, at least +%7 was the goal.</source>
        <translation>运行 %1（采样器 %2）的宏平均 F1 达到 %3，基线为 %4（运行 %5）：%6，目标是至少 +%7。</translation>
    </message>
    <message>
        <source>Your best rebalanced run, run %1 (sampler %2), reached macro F1 %3, against the baseline&apos;s %4 (run %5): %6; at least +%7 is the goal.</source>
        <translation>你最好的重新平衡运行是运行 %1（采样器 %2），宏平均 F1 达到 %3，基线为 %4（运行 %5）：%6；目标是至少 +%7。</translation>
    </message>
    <message>
        <source>Run %1 trains an effective batch of %2 (batch %3 x accumulation %4) with %5 planned, within the budget of %6.</source>
        <translation>运行 %1 以 %2 的有效批量训练（批量 %3 x 累积 %4），计划内存 %5，在 %6 的预算之内。</translation>
    </message>
    <message>
        <source>No run yet trains an effective batch of %1 within %2 of planned memory; closest: run %3, effective batch %4 with %5 planned.</source>
        <translation>还没有运行能在 %2 的计划内存内以 %1 的有效批量训练；最接近的：运行 %3，有效批量 %4，计划内存 %5。</translation>
    </message>
    <message>
        <source>No run was stopped or killed before its end yet: start training, then stop it (Stop, Ctrl+C, or kill the CLI) after an epoch or two.</source>
        <translation>还没有在结束前被停止或杀掉的运行：开始训练，一两轮之后停止它（“停止”、Ctrl+C，或杀掉命令行进程）。</translation>
    </message>
    <message>
        <source>Run %1 ended %2 at step %3. Resume it (Resume on the Runs page, or trainstudio-cli train --resume %1) and let it finish.</source>
        <translation>运行 %1 在第 %3 步以“%2”结束。恢复它（“运行”页的“恢复”，或 trainstudio-cli train --resume %1）并让它训练完。</translation>
    </message>
    <message>
        <source>Run %1 resumed run %2 (%3 at step %4) and finished at step %5.</source>
        <translation>运行 %1 恢复了运行 %2（在第 %4 步“%3”），并在第 %5 步完成。</translation>
    </message>
    <message>
        <source>Its final training loss %1 equals that of run %2, trained without a stop: the resume was exact.</source>
        <translation>它最终的训练损失 %1 与不间断训练的运行 %2 完全相同：恢复是精确的。</translation>
    </message>
    <message>
        <source>Its final training loss %1 differs from run %2&apos;s %3, trained without a stop with the same settings.</source>
        <translation>它最终的训练损失 %1 与相同设置下不间断训练的运行 %2 的 %3 不同。</translation>
    </message>
    <message numerus="yes">
        <source>%n finished run(s) with the same settings and different seeds (%2); three are needed: change training.seed only.</source>
        <translation>
            <numerusform>设置相同、种子不同的完成运行有 %n 次（%2）；需要三次：只改 training.seed。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 seeds (%2): %3 %4 ± %5 (mean ± standard deviation), from %6 to %7.</source>
        <translation>%1 个种子（%2）：%3 %4 ± %5（均值 ± 标准差），从 %6 到 %7。</translation>
    </message>
    <message numerus="yes">
        <source>None of your %n finished run(s) has been evaluated: select one on the Runs page and press Evaluate; it fits the temperature.</source>
        <translation>
            <numerusform>你完成的 %n 次运行都还没有评估：在“运行”页选中一个并点“评估”，它会拟合温度。</numerusform>
        </translation>
    </message>
    <message>
        <source>Evaluation %1 of run %2: temperature %3 lowers ECE from %4 to %5 (NLL %6 -&gt; %7).</source>
        <translation>运行 %2 的评估 %1：温度 %3 把 ECE 从 %4 降到 %5（NLL %6 -&gt; %7）。</translation>
    </message>
    <message>
        <source>Evaluation %1 of run %2: temperature %3 does not lower ECE (%4 -&gt; %5); train to convergence, then evaluate again.</source>
        <translation>运行 %2 的评估 %1：温度 %3 没有降低 ECE（%4 -&gt; %5）；训练到收敛后再评估。</translation>
    </message>
    <message>
        <source>exported the checkpoint of epoch %1 as ONNX to %2 (%3)</source>
        <translation>已将第 %1 轮的检查点导出为 ONNX：%2（%3）</translation>
    </message>
    <message numerus="yes">
        <source>None of your %n finished run(s) has been exported yet: select one on the Runs page and choose Export as ONNX (or trainstudio-cli export RUN).</source>
        <translation>
            <numerusform>你完成的 %n 次运行都还没有导出：在“运行”页选中一个并选“导出为 ONNX”（或 trainstudio-cli export RUN）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 was exported to %2, but the file is no longer there: export it again.</source>
        <translation>运行 %1 曾导出到 %2，但该文件已不在：请重新导出。</translation>
    </message>
    <message>
        <source>Run %1 (epoch %2) is exported as ONNX to %3 (%4), with a dynamic batch dimension.</source>
        <translation>运行 %1（第 %2 轮）已导出为 ONNX：%3（%4），批量维度是动态的。</translation>
    </message>
    <message>
        <source>the export is not recorded in the run&apos;s log: %1</source>
        <translation>导出未记录到运行日志中：%1</translation>
    </message>
    <message>
        <source>no output file was named: name one (--output FILE)</source>
        <translation>没有指定输出文件：请指定一个（--output FILE）</translation>
    </message>
    <message>
        <source>%1 is the run store of the workspace %2: writing there would destroy every run; choose another output file</source>
        <translation>%1 是工作区 %2 的运行存储：写入它会毁掉所有运行；请选择其他输出文件</translation>
    </message>
    <message>
        <source>%1 is inside the checkpoints folder of the workspace %2, which holds the runs&apos; weights: choose an output file outside it</source>
        <translation>%1 位于工作区 %2 的检查点文件夹中，那里保存着各次运行的权重：请在该文件夹之外选择输出文件</translation>
    </message>
    <message>
        <source>%1 is a folder: name a file inside it (for example %2)</source>
        <translation>%1 是一个文件夹：请指定其中的一个文件（例如 %2）</translation>
    </message>
    <message>
        <source>%1 is a device, not a regular file: nothing was written; name a regular file</source>
        <translation>%1 是设备，不是普通文件：未写入任何内容；请指定一个普通文件</translation>
    </message>
    <message>
        <source>%1 is a named pipe (FIFO), not a regular file: nothing was written; name a regular file</source>
        <translation>%1 是命名管道（FIFO），不是普通文件：未写入任何内容；请指定一个普通文件</translation>
    </message>
    <message>
        <source>%1 is a socket, not a regular file: nothing was written; name a regular file</source>
        <translation>%1 是套接字，不是普通文件：未写入任何内容；请指定一个普通文件</translation>
    </message>
    <message>
        <source>cannot write %1: the folder %2 does not exist; create it first or choose another folder</source>
        <translation>无法写入 %1：文件夹 %2 不存在；请先创建它，或选择其他文件夹</translation>
    </message>
    <message>
        <source>cannot write %1: %2; nothing was changed: choose another output file</source>
        <translation>无法写入 %1：%2；没有任何改动：请选择其他输出文件</translation>
    </message>
    <message>
        <source>cannot write %1: the disk is full (%2 to write, %3 free there); nothing was changed: free some space or choose another folder</source>
        <translation>无法写入 %1：磁盘已满（需写入 %2，那里仅剩 %3）；没有任何改动：请释放一些空间或选择其他文件夹</translation>
    </message>
    <message>
        <source>%1 is a symbolic link: wrote its target %2 and kept the link</source>
        <translation>%1 是符号链接：已写入其目标 %2，链接保持不变</translation>
    </message>
    <message numerus="yes">
        <source>removed %n incomplete checkpoint file(s) that a save interrupted by the run&apos;s end left behind: %2</source>
        <translation>
            <numerusform>已删除 %n 个不完整的检查点文件，它们是运行结束时被中断的保存留下的：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>the dataset changed since the checkpoint (%1): training continues on the data as it is now, from the start of the next epoch</source>
        <translation>自该检查点以来数据集已改变（%1）：训练将在当前的数据上、从下一轮开始处继续</translation>
    </message>
    <message>
        <source>device auto: %1; evaluating on the CPU</source>
        <translation>设备 auto：%1；改用 CPU 评估</translation>
    </message>
    <message>
        <source>device auto: %1; predicting on the CPU</source>
        <translation>设备 auto：%1；改用 CPU 预测</translation>
    </message>
    <message>
        <source>finding the largest batch that fits in %1 (%2 free, %3 of it kept free for the system)</source>
        <translation>正在寻找能放进 %1 的最大批量（空闲 %2，其中 %3 为系统保留）</translation>
    </message>
    <message>
        <source>one training step at batch %1</source>
        <translation>以批量 %1 运行一次训练步</translation>
    </message>
    <message>
        <source>one step at batch %1: peak %2 (planned %3), %4 ms</source>
        <translation>批量 %1 的单步：峰值 %2（计划 %3），%4 毫秒</translation>
    </message>
    <message>
        <source>the one-step check at batch %1 was stopped before its step was done</source>
        <translation>批量 %1 的单步检查在训练步完成之前已停止</translation>
    </message>
    <message numerus="yes">
        <source>dataset.image_shape is not given: %1, from the most common image size %2 (%3 of %n image(s); at most 256 pixels a side)</source>
        <translation>
            <numerusform>未指定 dataset.image_shape：使用 %1，取自最常见的图像尺寸 %2（%n 张图像中有 %3 张；每边最多 256 像素）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n image(s) differ from %3: resized keeping the aspect ratio and centre-cropped (dataset.resize: crop)</source>
        <translation>
            <numerusform>%n 张图像中有 %1 张的尺寸不是 %3：已保持宽高比缩放并裁取中心部分（dataset.resize: crop）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n image(s) differ from %3: resized keeping the aspect ratio and padded with black (dataset.resize: pad)</source>
        <translation>
            <numerusform>%n 张图像中有 %1 张的尺寸不是 %3：已保持宽高比缩放并用黑色填充（dataset.resize: pad）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n image(s) differ from %3: stretched to it, which changes their aspect ratio (dataset.resize: stretch)</source>
        <translation>
            <numerusform>%n 张图像中有 %1 张的尺寸不是 %3：已拉伸到该尺寸，宽高比随之改变（dataset.resize: stretch）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n file(s) that are not images (PNG, JPEG, WebP, TIFF, BMP or GIF) were left out</source>
        <translation>
            <numerusform>%1：%n 个不是图像（PNG、JPEG、WebP、TIFF、BMP 或 GIF）的文件被略过</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 forward runs on the CPU, as %3 does not support %2 (%n node(s))</source>
        <translation>
            <numerusform>%1 的前向计算在 CPU 上运行，因为 %3 不支持 %2（%n 个节点）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 backward runs on the CPU, as %3 does not support %2 (%n node(s))</source>
        <translation>
            <numerusform>%1 的反向传播在 CPU 上运行，因为 %3 不支持 %2（%n 个节点）</numerusform>
        </translation>
    </message>
    <message>
        <source>Sample after epoch %1: %2</source>
        <translation>第 %1 轮后的样例：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n text(s) longer than %3 tokens (the longest: %4): each is cut to its first %3 (dataset.context, the longest text the model reads)</source>
        <translation>
            <numerusform>%n 条文本中有 %1 条长于 %3 个词元（最长 %4 个）：每条都截取前 %3 个（dataset.context，模型读取的最长文本）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>weight decay %1 on %n weight matrices and kernels (%3 values); not on %4 bias, norm and embedding tensors (%5 values; optimizer.decay_all: true decays them too)</source>
        <translation>
            <numerusform>权重衰减 %1 作用于 %n 个权重矩阵和卷积核（%3 个数值）；不作用于 %4 个偏置、归一化和嵌入参数（%5 个数值；optimizer.decay_all: true 则也对它们衰减）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>weight decay %1 on all %n parameter tensor(s) (%3 values), biases, norms and embeddings included (optimizer.decay_all)</source>
        <translation>
            <numerusform>权重衰减 %1 作用于全部 %n 个参数张量（%3 个数值），包括偏置、归一化和嵌入参数（optimizer.decay_all）</numerusform>
        </translation>
    </message>
    <message>
        <source>The training broke down early, at step %1 of %2 (loss %3; lowest so far %4), with no learning-rate warm-up (schedule.warmup_steps: 0) at learning rate %5: a model with attention (%6) needs warm-up, since its first updates, large and noisy, throw the attention weights off. Warm up over the first 1 to 5% of the run&apos;s steps, and past where this run broke down: schedule.warmup_steps: %7. Clipping the gradient norm at 1.0 (training.clip_grad_norm) helps too.</source>
        <translation>训练在早期崩溃：共 %2 步中的第 %1 步（loss %3；此前最低 %4），没有学习率预热（schedule.warmup_steps: 0），学习率为 %5。含注意力的模型（%6）需要预热：最初的更新又大又乱，会把注意力权重带偏。在前 1% 到 5% 的训练步数内预热，并且要超过这次崩溃的位置：schedule.warmup_steps: %7。把梯度范数裁剪到 1.0（training.clip_grad_norm）也有帮助。</translation>
    </message>
    <message>
        <source>Run %1 has no attention layer; it reached %2 %3. On the Model page, draw a Transformer block between pos and ln_f (LayerNorm, MultiHeadAttention, Add, LayerNorm, Linear, GELU, Linear, Add) and train it.</source>
        <translation>运行 %1 没有注意力层；它达到了 %2 %3。在模型页上，在 pos 和 ln_f 之间画一个 Transformer 块（LayerNorm、MultiHeadAttention、Add、LayerNorm、Linear、GELU、Linear、Add），然后训练它。</translation>
    </message>
    <message numerus="yes">
        <source>Your ViT, run %1, with %n attention layer(s), reached %3 %4; %5 was the goal.</source>
        <translation>
            <numerusform>你的 ViT（运行 %1，%n 个注意力层）达到了 %3 %4；目标是 %5。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Your best ViT, run %1, with %n attention layer(s), reached %3 %4; %5 is the goal: train more epochs or add a block.</source>
        <translation>
            <numerusform>你最好的 ViT（运行 %1，%n 个注意力层）达到了 %3 %4；目标是 %5：多训练几轮，或者再加一个块。</numerusform>
        </translation>
    </message>
    <message>
        <source>No run without warm-up yet: train the starting experiment as shipped (schedule.warmup_steps 0, lr %1).</source>
        <translation>还没有不预热的运行：按原样训练起始实验（schedule.warmup_steps 0，学习率 %1）。</translation>
    </message>
    <message>
        <source>Run %1 trained without warm-up at lr %2. Now set schedule.warmup_steps (for example %3) and train again at the same learning rate.</source>
        <translation>运行 %1 在学习率 %2 下不预热地训练。现在设置 schedule.warmup_steps（例如 %3），用相同的学习率再训练一次。</translation>
    </message>
    <message>
        <source>With warm-up (%1 steps), run %2 ended at %3 %4; without, run %5 ended at %6, at the same lr %7.</source>
        <translation>预热 %1 步的运行 %2 最终为 %3 %4；不预热的运行 %5 最终为 %6，学习率同为 %7。</translation>
    </message>
    <message>
        <source>With warm-up (%1 steps), run %2 ended at %3 %4; without, run %5 diverged at step %6, at the same lr %7.</source>
        <translation>预热 %1 步的运行 %2 最终为 %3 %4；不预热的运行 %5 在第 %6 步发散，学习率同为 %7。</translation>
    </message>
    <message>
        <source>With warm-up (%1 steps), run %2 ended at %3 %4, not below the %5 of run %6 without warm-up at the same lr %7: warm up for longer and train again.</source>
        <translation>预热 %1 步的运行 %2 最终为 %3 %4，没有低于相同学习率 %7 下不预热的运行 %6 的 %5：预热更长时间，再训练一次。</translation>
    </message>
    <message numerus="yes">
        <source>Run %1 reached %2 %3 but wrote %n sample(s): train at least %5 epochs (each ends with a sample) to see its writing improve.</source>
        <translation>
            <numerusform>运行 %1 达到了 %2 %3，但只写了 %n 个样本：至少训练 %5 轮（每轮结束时写一个样本），才能看到它的写作进步。</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 reached %2 %3 (%4 or lower was the goal) and wrote after each of its %5 epochs:</source>
        <translation>运行 %1 达到了 %2 %3（目标是 %4 或更低），并在它的 %5 轮中每轮结束后都写了样本：</translation>
    </message>
    <message>
        <source>Your best run, run %1, reached %2 %3; %4 or lower is the goal: train more epochs.</source>
        <translation>你最好的运行（运行 %1）达到了 %2 %3；目标是 %4 或更低：多训练几轮。</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n row(s) with an empty text (the first: %3): left out; fill in the text or remove the row</source>
        <translation>
            <numerusform>%n 行中有 %1 行文本为空（第一行：%3）：已略去；请填入文本或删除该行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>evaluation %1 of run %2 (epoch %3) on %n %5 sample(s): MAE %6, RMSE %7; predicting the training mean instead: MAE %8, RMSE %9</source>
        <translation>
            <numerusform>运行 %2 的评估 %1（第 %3 轮），%n 个 %5 样本：MAE %6，RMSE %7；若改为预测训练集均值：MAE %8，RMSE %9</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FileWriter</name>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>HealthFixes</name>
    <message>
        <source>The model has no loss node to weight: add a CrossEntropy loss on the Model page.</source>
        <translation>模型没有可加权的损失节点：请在“模型”页添加 CrossEntropy 损失。</translation>
    </message>
    <message>
        <source>The model&apos;s loss &apos;%1&apos; is %2: class weights apply to a CrossEntropy loss. Use the class-balanced sampler instead.</source>
        <translation>模型的损失“%1”是 %2：类别权重只适用于 CrossEntropy 损失。请改用类别均衡采样器。</translation>
    </message>
    <message>
        <source>There are no class counts to weight by.</source>
        <translation>没有可用于计算权重的类别计数。</translation>
    </message>
</context>
<context>
    <name>LessonTexts</name>
    <message>
        <source>Look at your data</source>
        <translation>看看你的数据</translation>
    </message>
    <message>
        <source>Run the dataset&apos;s health check and mark at least one duplicate or mislabelled sample.</source>
        <translation>运行数据集健康检查，并至少标记一个重复或标错的样本。</translation>
    </message>
    <message>
        <source>Overfit one batch first</source>
        <translation>先在一个批次上过拟合</translation>
    </message>
    <message>
        <source>Train on one fixed batch until the training loss is below 0.1.</source>
        <translation>在一个固定批次上训练，直到训练损失低于 0.1。</translation>
    </message>
    <message>
        <source>Find a learning rate</source>
        <translation>找一个学习率</translation>
    </message>
    <message>
        <source>With a rate from the learning-rate finder, reach at most 0.8 times the validation loss of the shipped rate.</source>
        <translation>用学习率查找器给出的学习率，使验证损失不超过自带学习率的 0.8 倍。</translation>
    </message>
    <message>
        <source>Beat the MLP with a CNN</source>
        <translation>用 CNN 超越 MLP</translation>
    </message>
    <message>
        <source>Draw a CNN on the Model page whose best validation accuracy is above the MLP&apos;s.</source>
        <translation>在“模型”页画一个 CNN，使其最佳验证准确率高于 MLP。</translation>
    </message>
    <message>
        <source>Fix an imbalanced dataset</source>
        <translation>修正不平衡的数据集</translation>
    </message>
    <message>
        <source>Raise the macro F1 by at least 0.02 with the class-balanced or weighted sampler.</source>
        <translation>用类别平衡或加权采样器，把宏平均 F1 提高至少 0.02。</translation>
    </message>
    <message>
        <source>Fit a larger batch</source>
        <translation>容纳更大的批量</translation>
    </message>
    <message>
        <source>Train an effective batch 4 times larger within 1.1 times the planned memory.</source>
        <translation>以 4 倍的有效批量训练，计划内存不超过原来的 1.1 倍。</translation>
    </message>
    <message>
        <source>Resume a killed run exactly</source>
        <translation>精确恢复被杀掉的运行</translation>
    </message>
    <message>
        <source>Stop a run before its end, resume it from its checkpoint and let it finish.</source>
        <translation>在运行结束前停止它，从检查点恢复并让它训练完。</translation>
    </message>
    <message>
        <source>Compare three seeds</source>
        <translation>比较三个种子</translation>
    </message>
    <message>
        <source>Train the same settings with three seeds and read the mean ± standard deviation.</source>
        <translation>用三个种子训练相同的设置，读出均值 ± 标准差。</translation>
    </message>
    <message>
        <source>Calibrate with temperature scaling</source>
        <translation>用温度缩放做校准</translation>
    </message>
    <message>
        <source>Evaluate a run so that its fitted temperature lowers the calibration error (ECE).</source>
        <translation>评估一次运行，使拟合出的温度降低校准误差（ECE）。</translation>
    </message>
    <message>
        <source>Export to ONNX</source>
        <translation>导出为 ONNX</translation>
    </message>
    <message>
        <source>Export a trained run as an ONNX file with a dynamic batch dimension.</source>
        <translation>把训练好的运行导出为批量维度动态的 ONNX 文件。</translation>
    </message>
    <message>
        <source>Attention, step by step</source>
        <translation>一步一步理解注意力</translation>
    </message>
    <message>
        <source>Draw a Transformer block into the Vision Transformer and reach 0.82 test accuracy.</source>
        <translation>在视觉 Transformer 中画一个 Transformer 块，达到 0.82 的测试准确率。</translation>
    </message>
    <message>
        <source>Why Transformers warm up</source>
        <translation>Transformer 为什么要预热</translation>
    </message>
    <message>
        <source>Train the same Transformer without and with learning-rate warm-up; the warmed-up run must end with the lower loss.</source>
        <translation>分别不用和使用学习率预热训练同一个 Transformer；预热的运行最终损失必须更低。</translation>
    </message>
    <message>
        <source>Make it write</source>
        <translation>让它写作</translation>
    </message>
    <message>
        <source>Train the character-level GPT to 3.1 validation bits per character or lower, over at least two epochs of samples.</source>
        <translation>把字符级 GPT 训练到验证集每字符比特数 3.1 或更低，并且至少有两轮的样本。</translation>
    </message>
</context>
<context>
    <name>MetricCharts</name>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>train (per step)</source>
        <translation>训练（每步）</translation>
    </message>
    <message>
        <source>train (epoch)</source>
        <translation>训练（每轮）</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>global norm</source>
        <translation>全局范数</translation>
    </message>
    <message>
        <source>before clipping</source>
        <translation>裁剪前</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>Waiting for data</source>
        <translation>等待数据</translation>
    </message>
    <message>
        <source>% of step time</source>
        <translation>占每步时间的 %</translation>
    </message>
    <message>
        <source>data wait</source>
        <translation>数据等待</translation>
    </message>
    <message>
        <source>CPU / GPU load</source>
        <translation>CPU / GPU 负载</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>RAM (process)</source>
        <translation>内存（本进程）</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>test (no validation split)</source>
        <translation>测试（无验证集）</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>进程 %1</translation>
    </message>
</context>
<context>
    <name>MetricNames</name>
    <message>
        <source>test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Loss (per step)</source>
        <translation>损失（每步）</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>Throughput (samples/s)</source>
        <translation>吞吐量（样本/秒）</translation>
    </message>
    <message>
        <source>Test loss</source>
        <translation>测试损失</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Training loss (epoch)</source>
        <translation>训练损失（每轮）</translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>Training accuracy</source>
        <translation>训练准确率</translation>
    </message>
    <message>
        <source>%1 top-%2 accuracy</source>
        <translation>%1 top-%2 准确率</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Test macro F1</source>
        <translation>测试宏平均 F1</translation>
    </message>
    <message>
        <source>Validation macro F1</source>
        <translation>验证宏平均 F1</translation>
    </message>
    <message>
        <source>Training macro F1</source>
        <translation>训练宏平均 F1</translation>
    </message>
    <message>
        <source>Test bits per character</source>
        <translation>测试每字符比特数</translation>
    </message>
    <message>
        <source>Validation bits per character</source>
        <translation>验证每字符比特数</translation>
    </message>
    <message>
        <source>Training bits per character</source>
        <translation>训练每字符比特数</translation>
    </message>
    <message>
        <source>Test perplexity</source>
        <translation>测试困惑度</translation>
    </message>
    <message>
        <source>Validation perplexity</source>
        <translation>验证困惑度</translation>
    </message>
    <message>
        <source>Training perplexity</source>
        <translation>训练困惑度</translation>
    </message>
</context>
<context>
    <name>ModelScene</name>
    <message>
        <source>input %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <source>%1 ← %2</source>
        <translation>%1 ← %2</translation>
    </message>
    <message>
        <source>shape unknown: an input is broken</source>
        <translation>形状未知：某个输入有误</translation>
    </message>
    <message>
        <source>%1 params</source>
        <translation>%1 参数</translation>
    </message>
    <message>
        <source>holds %1 for backward</source>
        <translation>为反向传播保留 %1</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message numerus="yes">
        <source>Block of %n node(s)</source>
        <translation>
            <numerusform>包含 %n 个节点的块</numerusform>
        </translation>
    </message>
    <message>
        <source>%1/sample</source>
        <translation>%1/样本</translation>
    </message>
</context>
<context>
    <name>OptionHelp</name>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>The update rule. adam is a safe default; prefer adamw when you use weight decay (its decay is decoupled from the gradient); sgd with momentum 0.9 often generalises well but needs a tuned learning rate.</source>
        <translation>参数更新规则。adam 是稳妥的默认选择；使用权重衰减时优先选 adamw（它的衰减与梯度解耦）；带 0.9 动量的 sgd 往往泛化更好，但需要仔细调学习率。</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>The size of every update, the most important setting. Start at 1e-3 (Adam) and watch the loss curve: if it oscillates or explodes, lower it (1e-4, 1e-5); if it hardly moves, raise it. The learning-rate finder suggests one.</source>
        <translation>每次更新的步长，最重要的超参数。Adam 从 1e-3 开始，观察 loss 曲线：震荡或发散就调小（1e-4、1e-5），几乎不动就调大。学习率查找器可以给出建议值。</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>动量</translation>
    </message>
    <message>
        <source>The share of the previous update carried into the next (SGD, RMSprop). 0.9 is the usual value; 0 turns it off.</source>
        <translation>上一次更新带入下一次更新的比例（SGD、RMSprop）。常用 0.9；0 表示关闭。</translation>
    </message>
    <message>
        <source>Nesterov momentum</source>
        <translation>Nesterov 动量</translation>
    </message>
    <message>
        <source>SGD only: takes the gradient after a look-ahead step along the momentum, often a little faster. Needs momentum &gt; 0.</source>
        <translation>仅 SGD：先沿动量方向前瞻一步再计算梯度，通常收敛略快。需要动量 &gt; 0。</translation>
    </message>
    <message>
        <source>Beta 1</source>
        <translation>Beta 1（一阶矩衰减）</translation>
    </message>
    <message>
        <source>Adam and AdamW: decay of the running mean of gradients. The default 0.9 rarely needs changing.</source>
        <translation>Adam 和 AdamW：梯度滑动平均的衰减率。默认值 0.9 很少需要修改。</translation>
    </message>
    <message>
        <source>Beta 2</source>
        <translation>Beta 2（二阶矩衰减）</translation>
    </message>
    <message>
        <source>Adam and AdamW: decay of the running mean of squared gradients. The default 0.999 rarely needs changing.</source>
        <translation>Adam 和 AdamW：梯度平方滑动平均的衰减率。默认值 0.999 很少需要修改。</translation>
    </message>
    <message>
        <source>Epsilon</source>
        <translation>Epsilon（数值稳定项）</translation>
    </message>
    <message>
        <source>Adam, AdamW and RMSprop: a small number added to the denominator so it is never zero. Keep the default 1e-8.</source>
        <translation>Adam、AdamW 和 RMSprop：加到分母上的小数，防止除以零。保持默认值 1e-8 即可。</translation>
    </message>
    <message>
        <source>Smoothing (alpha)</source>
        <translation>平滑系数（alpha）</translation>
    </message>
    <message>
        <source>RMSprop: decay of the running mean of squared gradients; 0.99 is the usual value.</source>
        <translation>RMSprop：梯度平方滑动平均的衰减率；常用 0.99。</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>学习率调度</translation>
    </message>
    <message>
        <source>How the learning rate changes during the run: constant; step, multistep or exponential decay by epoch; cosine annealing, with or without restarts; one-cycle (up, then down; often converges faster than a fixed rate); plateau (lowers the rate when the validation metric stalls). Train once at a constant rate and look at the curve first.</source>
        <translation>训练过程中学习率如何变化：constant（固定）；step、multistep、exponential 按 epoch 衰减；余弦退火（可带重启）；one-cycle（先升后降，往往比固定学习率收敛更快）；plateau（验证指标停滞时降低学习率）。建议先用固定学习率跑一遍，看看曲线再决定。</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>预热步数</translation>
    </message>
    <message>
        <source>Optimizer steps over which the rate rises linearly from start factor x lr to lr, under any schedule. It avoids the early blow-ups of a large rate; Transformer-like models almost always need a few hundred. 0: no warm-up.</source>
        <translation>在这么多个优化步内，学习率从“起始系数 × lr”线性升到 lr，叠加在任何调度之上。可避免大学习率在训练初期导致梯度爆炸；Transformer 类模型几乎都需要几百步预热。0：不预热。</translation>
    </message>
    <message>
        <source>Warm-up start factor</source>
        <translation>预热起始系数</translation>
    </message>
    <message>
        <source>The fraction of the learning rate the warm-up starts from (0: from zero).</source>
        <translation>预热开始时学习率所占的比例（0：从零开始）。</translation>
    </message>
    <message>
        <source>Step size (epochs)</source>
        <translation>衰减间隔（epoch）</translation>
    </message>
    <message>
        <source>Step schedule: the rate is multiplied by gamma every this many epochs, e.g. every 10 epochs by 0.1.</source>
        <translation>Step 调度：每隔这么多个 epoch 把学习率乘以 gamma，例如每 10 个 epoch 乘以 0.1。</translation>
    </message>
    <message>
        <source>Milestones (epochs)</source>
        <translation>里程碑（epoch）</translation>
    </message>
    <message>
        <source>Multistep schedule: the epochs at which the rate is multiplied by gamma, increasing, e.g. 30, 60, 90.</source>
        <translation>Multistep 调度：在这些 epoch 把学习率乘以 gamma，须递增，例如 30, 60, 90。</translation>
    </message>
    <message>
        <source>Decay factor (gamma)</source>
        <translation>衰减系数（gamma）</translation>
    </message>
    <message>
        <source>The multiplier of each decay: every step size epochs (step), at each milestone (multistep) or every epoch (exponential, where 0.9-0.99 is typical). 0.1 divides the rate by ten.</source>
        <translation>每次衰减的乘数：每隔衰减间隔（step）、每个里程碑（multistep）或每个 epoch（exponential，常用 0.9-0.99）。0.1 表示学习率降为十分之一。</translation>
    </message>
    <message>
        <source>Minimum learning rate</source>
        <translation>最小学习率</translation>
    </message>
    <message>
        <source>The rate the cosine schedules anneal down to, and the floor below which plateau never lowers it.</source>
        <translation>余弦调度退火到的学习率，也是 plateau 降低学习率的下限。</translation>
    </message>
    <message>
        <source>First period (epochs)</source>
        <translation>首个周期（epoch）</translation>
    </message>
    <message>
        <source>Cosine with restarts: the length of the first cycle. Fit it to the number of epochs: a period too short restarts before the model has converged.</source>
        <translation>带重启的余弦退火：第一个周期的长度。应与总 epoch 数相配：周期太短，模型还没收敛就重启了。</translation>
    </message>
    <message>
        <source>Period multiplier</source>
        <translation>周期倍数</translation>
    </message>
    <message>
        <source>Cosine with restarts: each cycle is this many times longer than the one before (1: equal cycles, 2: doubling).</source>
        <translation>带重启的余弦退火：每个周期是上一个的多少倍长（1：等长，2：翻倍）。</translation>
    </message>
    <message>
        <source>Peak learning rate</source>
        <translation>峰值学习率</translation>
    </message>
    <message>
        <source>One-cycle: the highest rate, reached after the rising fraction of the run (0: 10 x the learning rate). The learning-rate finder&apos;s suggestion is a good peak.</source>
        <translation>One-cycle：最高学习率，在上升阶段结束时达到（0：学习率的 10 倍）。学习率查找器的建议值是不错的峰值。</translation>
    </message>
    <message>
        <source>Rising fraction</source>
        <translation>上升比例</translation>
    </message>
    <message>
        <source>One-cycle: the fraction of the run spent raising the rate to its peak; 0.3 is the usual value.</source>
        <translation>One-cycle：用于把学习率升到峰值的训练比例；常用 0.3。</translation>
    </message>
    <message>
        <source>Watched metric</source>
        <translation>监控指标</translation>
    </message>
    <message>
        <source>Plateau: the metric whose stalling lowers the rate, such as val_loss or val_acc (losses should fall, accuracies rise). It needs a validation split.</source>
        <translation>Plateau：停滞时触发降低学习率的指标，例如 val_loss 或 val_acc（损失应下降，准确率应上升）。需要验证集。</translation>
    </message>
    <message>
        <source>Reduction factor</source>
        <translation>降低系数</translation>
    </message>
    <message>
        <source>Plateau: the rate is multiplied by this when the metric stalls (0.1 divides it by ten).</source>
        <translation>Plateau：指标停滞时学习率乘以这个值（0.1 表示降为十分之一）。</translation>
    </message>
    <message>
        <source>Patience (epochs)</source>
        <translation>耐心值（epoch）</translation>
    </message>
    <message>
        <source>Plateau: epochs without improvement before the rate is lowered.</source>
        <translation>Plateau：没有改善多少个 epoch 后降低学习率。</translation>
    </message>
    <message>
        <source>Improvement threshold</source>
        <translation>改善阈值</translation>
    </message>
    <message>
        <source>Plateau: the relative change of the metric that counts as an improvement (1e-4: 0.01%).</source>
        <translation>Plateau：指标的相对变化达到多少才算改善（1e-4：0.01%）。</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>Pulls the weights towards zero against overfitting. Prefer AdamW to Adam for it (Adam adds it to the gradient, AdamW decouples it); 0.01-0.1 is typical: too much underfits, too little does nothing.</source>
        <translation>把权重拉向零以抑制过拟合。使用权重衰减时优先选 AdamW 而不是 Adam（Adam 把它加进梯度，AdamW 将其解耦）；一般设 0.01-0.1：太大导致欠拟合，太小起不到作用。</translation>
    </message>
    <message>
        <source>Clip gradient norm</source>
        <translation>梯度范数裁剪</translation>
    </message>
    <message>
        <source>Scales the gradients down when their total norm exceeds this, against exploding gradients (nearly a must for RNNs and Transformers). 1.0 is a common start; norms often above 10 point to too high a rate or a bad initialisation. 0: off.</source>
        <translation>梯度总范数超过该值时按比例缩小，防止梯度爆炸（训练 RNN 和 Transformer 时几乎必需）。1.0 是常见的起点；梯度范数经常超过 10，说明学习率太大或初始化不当。0：关闭。</translation>
    </message>
    <message>
        <source>Clip gradient value</source>
        <translation>梯度值裁剪</translation>
    </message>
    <message>
        <source>Clamps every gradient element to plus or minus this value. Clipping the norm is usually the better choice. 0: off.</source>
        <translation>把每个梯度元素限制在正负该值之内。通常裁剪范数是更好的选择。0：关闭。</translation>
    </message>
    <message>
        <source>Random crop padding</source>
        <translation>随机裁剪填充</translation>
    </message>
    <message>
        <source>Augmentation: pads each training image by this many pixels and crops it back at a random offset, so the model sees shifted copies (4 is common for 32x32 images). 0: off.</source>
        <translation>数据增强：每张训练图像四周填充这么多像素，再随机裁剪回原尺寸，让模型看到平移后的样本（32x32 图像常用 4）。0：关闭。</translation>
    </message>
    <message>
        <source>Horizontal flip</source>
        <translation>水平翻转</translation>
    </message>
    <message>
        <source>Augmentation: mirrors half of the training images left to right. Right for photographs, wrong where direction matters (digits, text).</source>
        <translation>数据增强：随机左右翻转一半训练图像。适合照片；方向有意义时（数字、文字）不要用。</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epoch 数</translation>
    </message>
    <message>
        <source>Passes over the training split. With early stopping the run may end sooner.</source>
        <translation>遍历训练集的次数。开启早停时训练可能提前结束。</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Samples per forward and backward pass. Larger batches take more memory and usually tolerate a larger learning rate; when memory runs out, lower it and accumulate gradients instead.</source>
        <translation>每次前向和反向传播的样本数。批越大占用显存越多，通常也能承受更大的学习率；显存不够时调小它，改用梯度累积。</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Micro-batches whose gradients are summed before each optimizer step (the loss divided by their number), so batch size x this acts as one large batch when memory is short. Each update takes longer, and batch norm still sees the small batch.</source>
        <translation>每次优化步之前累加梯度的微批数（损失除以该数），显存不足时让“批大小 × 该值”等效于一个大批。每次更新耗时更长，且 BatchNorm 仍按小批计算统计量。</translation>
    </message>
    <message>
        <source>Synchronised batch norm</source>
        <translation>同步批归一化</translation>
    </message>
    <message>
        <source>When the run trains on several processes, batch norm computes its mean and variance over the whole global batch instead of each process&apos;s share: the run then follows a single process&apos;s, at the cost of three small exchanges per batch norm layer in each step.</source>
        <translation>当运行在多个进程上训练时，批归一化在整个全局批上计算均值和方差，而不是只用本进程那一份：这样运行的曲线与单进程一致，代价是每一步每个批归一化层多做三次少量数据的交换。</translation>
    </message>
    <message>
        <source>Distributed timeout (s)</source>
        <translation>分布式超时（秒）</translation>
    </message>
    <message>
        <source>When the run trains on several processes: how long one exchange waits for the others. A process that stops answering (stopped, hung, unreachable) then fails the run with a message naming it and its host, and the run resumes from its last checkpoint. It must exceed the longest time the first process works alone (evaluation, checkpoints). 0: wait forever.</source>
        <translation>当运行在多个进程上训练时：一次数据交换等待其他进程的最长时间。某个进程停止响应（被暂停、卡死或无法连接）时，运行随即失败，消息中指明该进程及其主机，之后可从最后一个检查点继续。它必须长于第一个进程单独工作的最长时间（评估、保存检查点）。0：一直等待。</translation>
    </message>
    <message>
        <source>Overfit batches</source>
        <translation>过拟合批数</translation>
    </message>
    <message>
        <source>Sanity check: train on this many fixed batches only. A sound model and pipeline drive the loss close to zero on them; if not, look for a bug before tuning anything. 0: off.</source>
        <translation>健全性检查：只在这么多个固定的批上训练。模型和数据管道没问题时，损失应降到接近零；否则先找 bug，再调参。0：关闭。</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Where to train: auto (a GPU when there is one, else the CPU), cpu, cuda, or cuda:N for the N-th GPU.</source>
        <translation>在哪里训练：auto（有 GPU 用 GPU，否则用 CPU）、cpu、cuda，或 cuda:N 表示第 N 块 GPU。</translation>
    </message>
    <message>
        <source>Matrix precision</source>
        <translation>矩阵精度</translation>
    </message>
    <message>
        <source>What matrix products compute in: f32 (the exact reference), tf32, bf16 or f16; weights, activations and gradients stay f32, so it speeds up tensor-core GPUs without saving memory. Prefer bf16 on Ampere and newer (no loss scaling); f16 adds a dynamic loss scaler.</source>
        <translation>矩阵乘法使用的计算精度：f32（精确的参考）、tf32、bf16 或 f16；权重、激活值和梯度仍为 f32，因此能在有张量核心的 GPU 上提速，但不节省显存。Ampere 及更新的 GPU 优先用 bf16（无需损失缩放）；f16 会启用动态损失缩放。</translation>
    </message>
    <message>
        <source>Initial loss scale</source>
        <translation>初始损失缩放</translation>
    </message>
    <message>
        <source>f16 only: the loss is multiplied by this before the backward pass so small gradients do not vanish; the scaler lowers it after an overflow and raises it again while steps stay finite. 65536 rarely needs changing; a scale that keeps falling points to a numerical problem in the model.</source>
        <translation>仅 f16：反向传播前把损失乘以该值，防止小梯度下溢；溢出后缩放器会调低它，步骤持续有限时再调高。65536 很少需要修改；缩放因子持续下降说明模型有数值稳定性问题。</translation>
    </message>
    <message>
        <source>Checkpoint every (epochs)</source>
        <translation>检查点间隔（epoch）</translation>
    </message>
    <message>
        <source>Writes a checkpoint (weights and training state) every this many epochs and at the end, to resume, fork or evaluate later. 0: only the final one.</source>
        <translation>每隔这么多个 epoch 以及训练结束时保存检查点（权重和训练状态），便于之后续训、分叉或评估。0：只保存最后一个。</translation>
    </message>
    <message>
        <source>Keep last</source>
        <translation>保留最近</translation>
    </message>
    <message>
        <source>How many recent checkpoints to keep, besides the best one. The last 3 plus the best saves disk without losing the one you want.</source>
        <translation>除最佳检查点外保留多少个最近的检查点。保留最近 3 个加最佳的一个，既省磁盘又不会丢掉你想要的那个。</translation>
    </message>
    <message>
        <source>Best checkpoint by</source>
        <translation>最佳检查点依据</translation>
    </message>
    <message>
        <source>The metric that picks the best checkpoint, such as val_acc or val_loss (losses should fall, accuracies rise).</source>
        <translation>用来挑选最佳检查点的指标，例如 val_acc 或 val_loss（损失应下降，准确率应上升）。</translation>
    </message>
    <message>
        <source>Early stopping</source>
        <translation>早停</translation>
    </message>
    <message>
        <source>Stops training when the watched metric has not improved for patience epochs: less overfitting, less time wasted. It needs a validation split.</source>
        <translation>监控指标连续“耐心值”个 epoch 没有改善时停止训练：减少过拟合，也不浪费时间。需要验证集。</translation>
    </message>
    <message>
        <source>The metric early stopping watches; val_loss is the usual one.</source>
        <translation>早停监控的指标；通常用 val_loss。</translation>
    </message>
    <message>
        <source>Epochs without improvement before training stops. 5 to 10 is typical: too few stops too early, too many wastes compute.</source>
        <translation>没有改善多少个 epoch 后停止训练。一般设 5 到 10：太小容易停得太早，太大浪费计算资源。</translation>
    </message>
    <message>
        <source>Minimum improvement</source>
        <translation>最小改善量</translation>
    </message>
    <message>
        <source>The smallest change of the metric that counts as an improvement.</source>
        <translation>指标至少变化多少才算改善。</translation>
    </message>
    <message>
        <source>Validation fraction</source>
        <translation>验证集比例</translation>
    </message>
    <message>
        <source>The share of the training split held out (seeded) for validation, which early stopping, the plateau schedule and the best checkpoint need. 0: the test split is evaluated after each epoch instead.</source>
        <translation>从训练集中（按种子）划出作验证集的比例，早停、plateau 调度和最佳检查点都需要它。0：改为每个 epoch 后评估测试集。</translation>
    </message>
    <message>
        <source>Split seed</source>
        <translation>划分种子</translation>
    </message>
    <message>
        <source>Decides which samples are held out for validation, so runs compare on the same split.</source>
        <translation>决定哪些样本被划入验证集，使各次运行在同一划分上比较。</translation>
    </message>
    <message>
        <source>Normalise from statistics</source>
        <translation>按统计量归一化</translation>
    </message>
    <message>
        <source>Normalise with the mean and standard deviation measured on the dataset (cached) instead of the values given here.</source>
        <translation>使用在数据集上测得（并缓存）的均值和标准差归一化，而不是这里给出的值。</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>Per-channel value subtracted from the inputs, one per channel (0.286 for Fashion-MNIST). Inputs on very different scales slow or stop convergence.</source>
        <translation>从输入中减去的逐通道值，每个通道一个（Fashion-MNIST 为 0.286）。输入量级差异过大会减慢甚至阻碍收敛。</translation>
    </message>
    <message>
        <source>Standard deviation</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Per-channel divisor applied after the mean, one per channel, each above zero (0.353 for Fashion-MNIST).</source>
        <translation>减去均值后逐通道除以的值，每个通道一个，均须大于零（Fashion-MNIST 为 0.353）。</translation>
    </message>
    <message>
        <source>Sampler</source>
        <translation>采样器</translation>
    </message>
    <message>
        <source>The order of training samples: random (shuffled each epoch), sequential, weighted (by class weight) or class_balanced (every class equally often). For imbalanced classes use weighted or class_balanced, and judge by recall and F1 rather than accuracy.</source>
        <translation>训练样本的顺序：random（每个 epoch 打乱）、sequential（顺序）、weighted（按类别权重）或 class_balanced（各类别出现次数相同）。类别不平衡时用 weighted 或 class_balanced，并看召回率和 F1 而不是准确率。</translation>
    </message>
    <message>
        <source>Class weights</source>
        <translation>类别权重</translation>
    </message>
    <message>
        <source>Weighted sampler: a relative weight per class, e.g. the inverse of each class&apos;s frequency; they need not sum to 1. Too large a weight makes the model over-predict that class.</source>
        <translation>加权采样器：每个类别的相对权重，例如各类频率的倒数；不需要归一化到和为 1。某类权重过大会让模型过度预测该类。</translation>
    </message>
    <message>
        <source>With replacement</source>
        <translation>有放回</translation>
    </message>
    <message>
        <source>Weighted sampler: draw with replacement, so samples of rare classes can repeat within an epoch.</source>
        <translation>加权采样器：有放回地抽样，稀有类别的样本在一个 epoch 内可以重复出现。</translation>
    </message>
    <message>
        <source>Loader workers</source>
        <translation>加载线程数</translation>
    </message>
    <message>
        <source>Threads that read, decode and augment batches while the model trains. Half to two thirds of the CPU cores is a good start; 0 loads on the training thread. Raise it when the GPU waits for data.</source>
        <translation>在模型训练的同时读取、解码和增强批数据的线程数。从 CPU 核心数的一半到三分之二开始比较稳妥；0 表示在训练线程里加载。GPU 等数据时调大它。</translation>
    </message>
    <message>
        <source>Prefetch batches</source>
        <translation>预取批数</translation>
    </message>
    <message>
        <source>Batches prepared ahead of training, so a slow batch does not stall a step.</source>
        <translation>提前准备好的批数，慢的批不会拖住训练步。</translation>
    </message>
    <message>
        <source>Cache decoded samples</source>
        <translation>缓存解码后的样本</translation>
    </message>
    <message>
        <source>Decodes the dataset once into a memory-mapped file in the workspace cache, so later epochs and runs skip decoding; it takes disk space.</source>
        <translation>把数据集一次性解码到工作区缓存中的内存映射文件，之后的 epoch 和运行都跳过解码；会占用磁盘空间。</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Drives parameter initialisation, shuffling, dropout and augmentation: the same seed repeats a run. Try a few to see how much results vary.</source>
        <translation>决定参数初始化、打乱、Dropout 和数据增强：相同的种子复现一次运行。多试几个种子，看看结果的波动有多大。</translation>
    </message>
    <message>
        <source>Deterministic</source>
        <translation>确定性</translation>
    </message>
    <message>
        <source>Uses deterministic algorithms on the GPU, so runs repeat bit for bit, at some cost in speed.</source>
        <translation>在 GPU 上使用确定性算法，使运行逐位复现，代价是速度有所下降。</translation>
    </message>
    <message>
        <source>Skip non-finite losses</source>
        <translation>跳过非有限损失</translation>
    </message>
    <message>
        <source>Skips a step whose loss is NaN or infinite instead of stopping the run. Better find the cause: too high a learning rate, a log of zero, a division by zero.</source>
        <translation>损失为 NaN 或无穷大时跳过该步，而不是停止训练。最好找出原因：学习率太大、对零取对数、除以零。</translation>
    </message>
    <message>
        <source>Log every (steps)</source>
        <translation>记录间隔（步）</translation>
    </message>
    <message>
        <source>How often training metrics are recorded: 1 logs every step; every 100 steps keeps long runs small.</source>
        <translation>训练指标的记录频率：1 表示每步都记录；每 100 步记录一次可让长时间运行的记录保持精简。</translation>
    </message>
    <message>
        <source>Top-k accuracy</source>
        <translation>Top-k 准确率</translation>
    </message>
    <message>
        <source>The k of each top-k accuracy to report (1 is plain accuracy), e.g. 1, 5.</source>
        <translation>要报告的 top-k 准确率的 k 值（1 即普通准确率），例如 1, 5。</translation>
    </message>
    <message>
        <source>Schedule and warm-up</source>
        <translation>学习率调度与预热</translation>
    </message>
    <message>
        <source>Regularisation</source>
        <translation>正则化</translation>
    </message>
    <message>
        <source>Batch and accumulation</source>
        <translation>批大小与梯度累积</translation>
    </message>
    <message>
        <source>Precision and memory</source>
        <translation>精度与显存</translation>
    </message>
    <message>
        <source>Checkpoints and early stopping</source>
        <translation>检查点与早停</translation>
    </message>
    <message>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>Seed and logging</source>
        <translation>随机种子与日志</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 线程</translation>
    </message>
    <message>
        <source>How many threads the CPU backend computes with. 0, automatic: the cores other programs leave idle, followed during the run, so a busy desktop does not slow training many times over. Results are the same with any count.</source>
        <translation>CPU 后端计算使用的线程数。0 为自动：使用其他程序空出的核心，并在训练中随之调整，这样繁忙的桌面不会让训练慢上许多倍。任何线程数下结果都相同。</translation>
    </message>
    <message>
        <source>Random resized crop</source>
        <translation>随机缩放裁剪</translation>
    </message>
    <message>
        <source>Augmentation: takes a random part of each training image, at least this fraction of its area with an aspect ratio between 3:4 and 4:3, and resizes it back to the whole (torchvision&apos;s RandomResizedCrop; 0.08 is its default, 0.5 is gentler). Evaluation sees whole images. 0: off.</source>
        <translation>数据增强：从每张训练图像中随机取出一块区域（面积至少为原图的这个比例，宽高比在 3:4 到 4:3 之间），再缩放回整幅大小（即 torchvision 的 RandomResizedCrop；它的默认值是 0.08，0.5 更温和）。评估时使用完整图像。0：关闭。</translation>
    </message>
    <message>
        <source>Resize images</source>
        <translation>图像缩放方式</translation>
    </message>
    <message>
        <source>Image folders: how an image of another size becomes image_shape. crop keeps the aspect ratio, fits the short side and cuts the centre (torchvision&apos;s Resize + CenterCrop); pad keeps it, fits the long side and fills the rest with black; stretch changes the aspect ratio (circles become ellipses). The run&apos;s log says how many images were resized.</source>
        <translation>图像文件夹：尺寸不同的图像如何变成 image_shape。crop 保持宽高比，让短边对齐后裁取中心（即 torchvision 的 Resize + CenterCrop）；pad 同样保持宽高比，让长边对齐，其余部分用黑色填充；stretch 会改变宽高比（圆会变成椭圆）。训练日志会说明有多少张图像被缩放。</translation>
    </message>
    <message>
        <source>Maximum steps</source>
        <translation>最大步数</translation>
    </message>
    <message>
        <source>Ends the run after this many optimizer steps, inside an epoch if need be; the learning-rate schedule spans these steps. Compares runs by a fixed budget. 0: the epochs decide.</source>
        <translation>在这么多次优化器步数后结束运行，必要时在一个 epoch 中途结束；学习率调度覆盖这些步数。用于以固定预算比较运行。0：由 epoch 数决定。</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Decay all parameters</source>
        <translation>衰减全部参数</translation>
    </message>
    <message>
        <source>Off (the default): weight decay applies only to the weight matrices and kernels of Linear, convolution and attention layers, not to biases, normalisation scales and shifts or embedding and position tables, as Transformers are trained. On: to every parameter, as torch.optim does when given all parameters in one group.</source>
        <translation>关闭（默认）：权重衰减只作用于 Linear、卷积和注意力层的权重矩阵和卷积核，不作用于偏置、归一化层的缩放和平移参数，也不作用于嵌入表和位置编码表，这是训练 Transformer 的常规做法。打开：作用于每一个参数，就像把全部参数放在同一组交给 torch.optim 时那样。</translation>
    </message>
    <message>
        <source>Text: how the text becomes tokens. characters gives one token per character that occurs in the text (a small vocabulary, long sequences); bytes one per byte, 256 in all, so any text can be encoded later; bpe and unigram learn vocab_size tokens (whole words and common parts of words) from the training split with SentencePiece, so sequences are shorter. The vocabulary is kept with the run&apos;s checkpoints.</source>
        <translation>文本：文本如何变成词元。characters 为文本中出现的每个字符分配一个词元（词表小，序列长）；bytes 每个字节一个词元，共 256 个，因此以后任何文本都能编码；bpe 和 unigram 用 SentencePiece 从训练集学出 vocab_size 个词元（整词和常见的词片段），序列因此更短。词表随运行的检查点一起保存。</translation>
    </message>
    <message>
        <source>Vocabulary size</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Text with the bpe or unigram tokenizer (required there; characters and bytes ignore it): how many tokens SentencePiece learns, each character of the text among them. 512 is a start; a larger vocabulary gives shorter sequences but rarer tokens. The model&apos;s Embedding num_embeddings and its output layer&apos;s out_features must equal it.</source>
        <translation>使用 bpe 或 unigram 分词器的文本（此时必填；characters 和 bytes 忽略它）：SentencePiece 学出多少个词元，文本中的每个字符都在其中。可以从 512 开始；词表越大，序列越短，但每个词元越少见。模型中 Embedding 的 num_embeddings 和输出层的 out_features 必须等于它。</translation>
    </message>
    <message>
        <source>Text column</source>
        <translation>文本列</translation>
    </message>
    <message>
        <source>CSV tables of texts: the column whose cells are the texts to classify; label_column gives each text&apos;s class. Empty: the table holds numbers (features). The texts are tokenized, padded and cut as a text folder&apos;s are (tokenizer, context), and a row with an empty text is left out (the run&apos;s log says how many).</source>
        <translation>文本的 CSV 表格：其单元格是待分类文本的那一列；label_column 给出每条文本的类别。留空：表格存放的是数值（特征）。文本的分词、填充和截断与文本文件夹相同（tokenizer、context），文本为空的行会被略去（运行日志会说明有多少行）。</translation>
    </message>
    <message>
        <source>Text: how many tokens the model sees at once; the text is cut into blocks this long, and the model learns to predict the next token at every position. Longer contexts cost memory and time in attention. Text classification (text_folder, or csv with text_column): the longest text read (max_length); shorter texts are padded with token 0, longer ones cut, and the run&apos;s log says how many.</source>
        <translation>文本：模型一次看到多少个词元；文本被切成这么长的块，模型学习在每个位置预测下一个词元。上下文越长，注意力耗费的内存和时间越多。文本分类（text_folder，或带 text_column 的 csv）：读取的最长文本（max_length）；较短的文本用词元 0 填充，较长的被截断，运行日志会说明有多少条。</translation>
    </message>
</context>
<context>
    <name>PageInfo</name>
    <message>
        <source>Datasets</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Hyperparameters</source>
        <translation>超参数</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <source>Browse datasets: samples, class balance and statistics.</source>
        <translation>浏览数据集：样本、类别分布和统计信息。</translation>
    </message>
    <message>
        <source>Build a model by dragging layers onto a canvas, with shapes, parameter counts and FLOPs shown live.</source>
        <translation>把层拖到画布上搭建模型，实时显示形状、参数量和 FLOPs。</translation>
    </message>
    <message>
        <source>Choose the optimizer, the learning-rate schedule and training options, with a preview of the learning-rate curve.</source>
        <translation>选择优化器、学习率调度和训练选项，并预览学习率曲线。</translation>
    </message>
    <message>
        <source>Train on the GPU or the CPU and watch loss, accuracy and resource use live.</source>
        <translation>在 GPU 或 CPU 上训练，实时查看损失、准确率和资源占用。</translation>
    </message>
    <message>
        <source>Compare runs, resume them from checkpoints, evaluate and export trained models.</source>
        <translation>比较运行记录，从检查点恢复训练，评估并导出训练好的模型。</translation>
    </message>
    <message>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>Learn step by step with lessons checked against your own runs: look at data, find a learning rate, beat an MLP, calibrate.</source>
        <translation>跟着课程一步步学习，每课都用你自己的运行来检查：看数据、找学习率、超越 MLP、做校准。</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1 is a model input: it takes no inputs</source>
        <translation>%1 是模型输入：它不接受输入</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <source>%1 cannot feed itself</source>
        <translation>%1 不能作为自身的输入</translation>
    </message>
    <message>
        <source>That would make a cycle: %1 already depends on %2</source>
        <translation>这会形成环：%1 已依赖于 %2</translation>
    </message>
    <message>
        <source>Already connected</source>
        <translation>已连接</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2) takes %n input(s)</source>
        <translation>
            <numerusform>%1（%2）接受 %n 个输入</numerusform>
        </translation>
    </message>
    <message>
        <source>Input %1 of %2 is already fed by %3: delete that wire first</source>
        <translation>%2 的输入 %1 已由 %3 提供：请先删除那条连线</translation>
    </message>
    <message>
        <source>A node needs a name</source>
        <translation>节点需要名称</translation>
    </message>
    <message>
        <source>Use letters, digits, &apos;_&apos;, &apos;.&apos; or &apos;-&apos;, starting with a letter or &apos;_&apos;</source>
        <translation>请使用字母、数字、&apos;_&apos;、&apos;.&apos; 或 &apos;-&apos;，并以字母或 &apos;_&apos; 开头</translation>
    </message>
    <message>
        <source>The name %1 is taken</source>
        <translation>名称 %1 已被占用</translation>
    </message>
</context>
<context>
    <name>Screenshot</name>
    <message>
        <source>The window was not shown within %1 seconds.</source>
        <translation>窗口未在 %1 秒内显示。</translation>
    </message>
    <message>
        <source>The window did not paint within %1 seconds.</source>
        <translation>窗口未在 %1 秒内完成绘制。</translation>
    </message>
    <message>
        <source>Could not draw the screenshot as %1.</source>
        <translation>无法将截图绘制为 %1。</translation>
    </message>
</context>
<context>
    <name>StudioOptions</name>
    <message>
        <source>Show the window, save a picture of it to &lt;file&gt; and quit.</source>
        <translation>显示窗口，将截图保存到 &lt;文件&gt; 后退出。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Use this language instead of the system&apos;s: %1.</source>
        <translation>使用此语言而非系统语言：%1。</translation>
    </message>
    <message>
        <source>language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Design, train and compare neural networks.</source>
        <translation>设计、训练和比较神经网络。</translation>
    </message>
    <message>
        <source>Unknown language &quot;%1&quot;; available: %2.</source>
        <translation>未知语言“%1”；可用的语言：%2。</translation>
    </message>
</context>
<context>
    <name>SystemInfo</name>
    <message numerus="yes">
        <source>CPU (%n threads)</source>
        <translation>
            <numerusform>CPU（%n 个线程）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>not built in</source>
        <translation>未包含在此构建中</translation>
    </message>
    <message>
        <source>%1 (built with %2)</source>
        <translation>%1（构建时使用 %2）</translation>
    </message>
    <message>
        <source>CUDA runtime</source>
        <translation>CUDA 运行时</translation>
    </message>
    <message>
        <source>%1 (%2 GiB, compute capability %3.%4)</source>
        <translation>%1（%2 GiB，计算能力 %3.%4）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Design, train and compare neural networks.</source>
        <translation>设计、训练和比较神经网络。</translation>
    </message>
    <message>
        <source>TrainStudio is free software: you can redistribute it and/or modify it under the terms of the GNU General Public License, version 3 or (at your option) any later version (GPL-3.0-or-later).</source>
        <translation>TrainStudio 是自由软件：你可以依据 GNU 通用公共许可证第 3 版或（由你选择）任何更高版本（GPL-3.0-or-later）的条款重新分发和/或修改它。</translation>
    </message>
</context>
<context>
    <name>ts::ui</name>
    <message>
        <source>The check waits in the job queue for the jobs before it.</source>
        <translation>检查正在任务队列中等待前面的任务完成。</translation>
    </message>
    <message>
        <source>Checking… %1%</source>
        <translation>正在检查… %1%</translation>
    </message>
    <message>
        <source>Checking… %1% (%2)</source>
        <translation>正在检查… %1%（%2）</translation>
    </message>
    <message>
        <source>The check did not finish.</source>
        <translation>检查没有完成。</translation>
    </message>
</context>
<context>
    <name>ts::ui::AttentionPanel</name>
    <message>
        <source>Which image of the test split goes through the model</source>
        <translation>测试集中送入模型的那张图像</translation>
    </message>
    <message>
        <source>A text the model reads, e.g. a line it was trained on</source>
        <translation>模型要读的一段文字，例如它训练时见过的一行</translation>
    </message>
    <message>
        <source>Show Attention</source>
        <translation>显示注意力</translation>
    </message>
    <message>
        <source>Test sample:</source>
        <translation>测试样本：</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>文本：</translation>
    </message>
    <message>
        <source>The checkpoint whose weights attend: the best by the run&apos;s metric, the last saved, or an epoch&apos;s (see how attention forms as training goes on)</source>
        <translation>用哪个检查点的权重来计算注意力：按本次运行指标最好的、最后保存的，或某个轮次的（可看出注意力如何随训练形成）</translation>
    </message>
    <message>
        <source>The MultiHeadAttention layer whose weights are shown, in the order the model runs them</source>
        <translation>显示哪一个 MultiHeadAttention 层的权重，按模型运行的顺序排列</translation>
    </message>
    <message>
        <source>One head, or all of them side by side: each head learns its own pattern</source>
        <translation>一个注意力头，或并排显示全部：每个头学到各自的模式</translation>
    </message>
    <message>
        <source>Whose attention is drawn over the image: one patch&apos;s (click a patch to pick it), or the mean over every patch</source>
        <translation>在图像上画出谁的注意力：某一个图块的（点击图块即可选中），或所有图块的平均</translation>
    </message>
    <message>
        <source>Query patch:</source>
        <translation>查询图块：</translation>
    </message>
    <message>
        <source>Checkpoint:</source>
        <translation>检查点：</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Select a run of a Transformer to see what its attention heads look at.</source>
        <translation>选择一个 Transformer 的运行，查看它的注意力头在看什么。</translation>
    </message>
    <message>
        <source>This model has no MultiHeadAttention layer: attention maps show what a Transformer&apos;s heads look at (try the ViT or the character GPT template).</source>
        <translation>这个模型没有 MultiHeadAttention 层：注意力图显示的是 Transformer 的各个头在看什么（可试试 ViT 或字符级 GPT 模板）。</translation>
    </message>
    <message>
        <source>Type a text and press Show Attention to see what each head looks at.</source>
        <translation>输入一段文字，按“显示注意力”查看每个头在看什么。</translation>
    </message>
    <message>
        <source>Choose an image of the test split and press Show Attention to see what each head looks at.</source>
        <translation>选择测试集中的一张图像，按“显示注意力”查看每个头在看什么。</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>最后</translation>
    </message>
    <message>
        <source>Epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>This run has no checkpoint yet: its attention can be seen once it has saved one.</source>
        <translation>这次运行还没有检查点：保存检查点后即可查看它的注意力。</translation>
    </message>
    <message>
        <source>Running the sample through the model…</source>
        <translation>正在把样本送入模型…</translation>
    </message>
    <message>
        <source>“%1” at character %2 is not in this model&apos;s vocabulary: type text made of the characters it was trained on.</source>
        <translation>第 %2 个字符“%1”不在这个模型的词表中：请用它训练时见过的字符输入文字。</translation>
    </message>
    <message>
        <source>Cannot show attention: %1</source>
        <translation>无法显示注意力：%1</translation>
    </message>
    <message>
        <source>test split</source>
        <translation>测试集</translation>
    </message>
    <message>
        <source>validation split</source>
        <translation>验证集</translation>
    </message>
    <message>
        <source>training split</source>
        <translation>训练集</translation>
    </message>
    <message>
        <source>Sample %1 of the %2 (%3) through the checkpoint of epoch %4. Click a patch to see what it attends to; more orange is more attention.</source>
        <translation>%2的第 %1 个样本（%3），使用第 %4 轮的检查点。点击一个图块查看它关注哪里；越橙表示注意力越多。</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>全部头</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Mean over all patches</source>
        <translation>所有图块的平均</translation>
    </message>
    <message>
        <source>Patch %1 (row %2, column %3)</source>
        <translation>图块 %1（第 %2 行，第 %3 列）</translation>
    </message>
    <message>
        <source>Image: %1</source>
        <translation>图像：%1</translation>
    </message>
    <message>
        <source>Outlined: the query patch. Orange: the patches it takes its mix from.</source>
        <translation>描边：查询图块。橙色：它从哪些图块汇集信息。</translation>
    </message>
    <message>
        <source>Orange: how much attention each patch receives, averaged over every patch that asks.</source>
        <translation>橙色：每个图块得到多少注意力，对所有发出查询的图块取平均。</translation>
    </message>
    <message>
        <source>Rows: the token that looks (query); columns: the tokens it looks at (keys).</source>
        <translation>行：发出查询的词元（query）；列：它所关注的词元（key）。</translation>
    </message>
    <message>
        <source>“%1” (token %2) %3%</source>
        <translation>“%1”（第 %2 个词元）%3%</translation>
    </message>
    <message>
        <source>Head %1: “%2” (token %3) attends most to %4</source>
        <translation>头 %1：“%2”（第 %3 个词元）最关注 %4</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Tokens read: %1, through the checkpoint of epoch %2. Hover a row to see what its token attends to; darker is more attention.</source>
        <translation>读入词元：%1 个，使用第 %2 轮的检查点。把鼠标移到一行上，查看该词元关注什么；颜色越深表示注意力越多。</translation>
    </message>
</context>
<context>
    <name>ts::ui::AugmentationPreview</name>
    <message>
        <source>The mean &quot;%1&quot; is not a list of numbers: write one per channel, such as 0.5 or 0.49, 0.48, 0.45.</source>
        <translation>均值“%1”不是数字列表：请每个通道写一个值，例如 0.5 或 0.49, 0.48, 0.45。</translation>
    </message>
    <message>
        <source>The standard deviation &quot;%1&quot; is not a list of numbers: write one per channel, such as 0.25.</source>
        <translation>标准差“%1”不是数字列表：请每个通道写一个值，例如 0.25。</translation>
    </message>
    <message>
        <source>A standard deviation must be above 0, not %1.</source>
        <translation>标准差必须大于 0，而不是 %1。</translation>
    </message>
    <message>
        <source>The engine refuses these settings: %1</source>
        <translation>引擎拒绝这些设置：%1</translation>
    </message>
    <message>
        <source>Crop and flip apply to images; these samples are %1 (a table): only normalisation applies.</source>
        <translation>裁剪和翻转只适用于图像；这些样本的形状是 %1（表格）：只能做归一化。</translation>
    </message>
    <message>
        <source>Waiting for the dataset&apos;s statistics to normalise with.</source>
        <translation>正在等待用于归一化的数据集统计量。</translation>
    </message>
    <message>
        <source>Drawing sample %1 as training will see it…</source>
        <translation>正在按训练时的样子绘制样本 %1…</translation>
    </message>
    <message>
        <source>Training never draws this sample in its first %1 epochs (the sampler leaves it out, or it falls in the dropped last batch).</source>
        <translation>训练在前 %1 个轮次中从未取到这个样本（采样器没有选中它，或它落在被丢弃的最后一个批次中）。</translation>
    </message>
    <message>
        <source>Epoch %1, flipped</source>
        <translation>第 %1 轮，已翻转</translation>
    </message>
    <message>
        <source>Epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Epoch %1, position %2 in the epoch: shifted by %3, %4 pixels (crop offset %5, %6 in the image padded by %7)%8</source>
        <translation>第 %1 轮，轮内位置 %2：平移 %3, %4 像素（在填充 %7 像素的图像中裁剪偏移 %5, %6）%8</translation>
    </message>
    <message>
        <source>, flipped</source>
        <translation>，已翻转</translation>
    </message>
    <message>
        <source>Choose a sample to see it as training will.</source>
        <translation>选择一个样本，查看它在训练中的样子。</translation>
    </message>
    <message>
        <source>Sample %1 at its first %2 appearances in training (training seed %3).</source>
        <translation>样本 %1 在训练中前 %2 次出现时的样子（训练种子 %3）。</translation>
    </message>
    <message>
        <source>The model gets values from %1 to %2, drawn from -3 (black) to +3 (white).</source>
        <translation>模型得到的值从 %1 到 %2，按 -3（黑）到 +3（白）显示。</translation>
    </message>
    <message>
        <source>The model gets values from %1 to %2; shown with the normalisation undone.</source>
        <translation>模型得到的值从 %1 到 %2；显示时已撤销归一化。</translation>
    </message>
    <message>
        <source>Random crop padding:</source>
        <translation>随机裁剪填充：</translation>
    </message>
    <message>
        <source>Pad the image by this many pixels (zeros) and crop it back at a random offset (dataset.random_crop_padding; 0 turns it off).</source>
        <translation>用这么多像素（零）填充图像，再在随机偏移处裁剪回原大小（dataset.random_crop_padding；0 表示关闭）。</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Random horizontal flip</source>
        <translation>随机水平翻转</translation>
    </message>
    <message>
        <source>Mirror half of the samples left to right (dataset.horizontal_flip). Right for photos, wrong for text and digits.</source>
        <translation>将一半样本左右镜像（dataset.horizontal_flip）。适合照片，不适合文字和数字。</translation>
    </message>
    <message>
        <source>Normalisation:</source>
        <translation>归一化：</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>From the dataset&apos;s statistics</source>
        <translation>使用数据集统计量</translation>
    </message>
    <message>
        <source>Fixed mean and standard deviation</source>
        <translation>固定的均值和标准差</translation>
    </message>
    <message>
        <source>Mean:</source>
        <translation>均值：</translation>
    </message>
    <message>
        <source>Std:</source>
        <translation>标准差：</translation>
    </message>
    <message>
        <source>One value per channel, or one for all (dataset.normalize_mean).</source>
        <translation>每个通道一个值，或所有通道共用一个值（dataset.normalize_mean）。</translation>
    </message>
    <message>
        <source>One value per channel, or one for all, above 0 (dataset.normalize_std).</source>
        <translation>每个通道一个值，或所有通道共用一个值，必须大于 0（dataset.normalize_std）。</translation>
    </message>
    <message>
        <source>Show normalised values (-3 black to +3 white)</source>
        <translation>显示归一化后的值（-3 黑到 +3 白）</translation>
    </message>
    <message>
        <source>This image is %1×%2 pixels, the size the model takes: not resized.</source>
        <translation>这张图像为 %1×%2 像素，正是模型接受的尺寸：未缩放。</translation>
    </message>
    <message>
        <source>resized keeping its aspect ratio and padded with black (dataset.resize: pad)</source>
        <translation>已保持宽高比缩放并用黑色填充（dataset.resize: pad）</translation>
    </message>
    <message>
        <source>stretched, which changes its aspect ratio (dataset.resize: stretch)</source>
        <translation>已拉伸，宽高比随之改变（dataset.resize: stretch）</translation>
    </message>
    <message>
        <source>resized keeping its aspect ratio and centre-cropped (dataset.resize: crop)</source>
        <translation>已保持宽高比缩放并裁取中心部分（dataset.resize: crop）</translation>
    </message>
    <message>
        <source>This image is %1×%2 pixels in its file; the model takes %3×%4: %5.</source>
        <translation>这张图像在文件中为 %1×%2 像素，模型接受 %3×%4：%5。</translation>
    </message>
    <message>
        <source>Random resized crop, smallest area:</source>
        <translation>随机缩放裁剪，最小面积：</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Take a random part of the image, at least this fraction of its area with an aspect ratio between 3:4 and 4:3, and resize it back to the whole (dataset.augment.random_resized_crop; torchvision uses 0.08; 0 turns it off). Training only.</source>
        <translation>随机取出图像的一部分（面积至少为原图的这个比例，宽高比在 3:4 到 4:3 之间），再缩放回整幅大小（dataset.augment.random_resized_crop；torchvision 默认 0.08；0 表示关闭）。仅用于训练。</translation>
    </message>
</context>
<context>
    <name>ts::ui::ComparisonModel</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Active time</source>
        <translation>有效训练时间</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>MFLOPs a sample</source>
        <translation>每样本 MFLOPs</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>最佳 %1</translation>
    </message>
    <message>
        <source>last %1</source>
        <translation>最终 %1</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>Setting or result</source>
        <translation>设置或结果</translation>
    </message>
    <message>
        <source>%1 = %2 (n = %3)</source>
        <translation>%1 = %2（n = %3）</translation>
    </message>
    <message numerus="yes">
        <source>%n values</source>
        <translation>
            <numerusform>%n 个值</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ± %2</source>
        <translation>%1 ± %2</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（不分组）</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Layer %1 (%2): %3</source>
        <translation>第 %1 层（%2）：%3</translation>
    </message>
    <message>
        <source>%1 [%2]</source>
        <translation>%1 [%2]</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>超参数搜索</translation>
    </message>
    <message>
        <source>Experiment name</source>
        <translation>实验名称</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
</context>
<context>
    <name>ts::ui::ConfusionPlot</name>
    <message>
        <source>Rows: true class; columns: predicted class. The colour is the share of the row. Click a cell to see its samples.</source>
        <translation>行：真实类别；列：预测类别。颜色表示占该行的比例。点击单元格可查看其中的样本。</translation>
    </message>
    <message>
        <source>Predicted class</source>
        <translation>预测类别</translation>
    </message>
    <message>
        <source>True class</source>
        <translation>真实类别</translation>
    </message>
    <message>
        <source>B − A, in percentage points of each true class</source>
        <translation>B − A，以各真实类别的百分点计</translation>
    </message>
    <message>
        <source>B worse</source>
        <translation>B 更差</translation>
    </message>
    <message>
        <source>B better</source>
        <translation>B 更好</translation>
    </message>
    <message>
        <source>Row-normalised confusion matrix of B minus A&apos;s, in percentage points of each true class. Blue: B does better (the class recognised more often, a mistake made less often); red: B does worse.</source>
        <translation>B 与 A 按行归一化的混淆矩阵之差，以各真实类别的百分点计。蓝色：B 更好（该类别识别得更多，某种错误犯得更少）；红色：B 更差。</translation>
    </message>
</context>
<context>
    <name>ts::ui::DatasetList</name>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Datasets seen in this workspace</source>
        <translation>此工作区见过的数据集</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1
%2
%3
Double-click to open</source>
        <translation>%1
%2
%3
双击打开</translation>
    </message>
</context>
<context>
    <name>ts::ui::DatasetOpenDialog</name>
    <message>
        <source>Open Dataset Folder</source>
        <translation>打开数据集文件夹</translation>
    </message>
    <message>
        <source>Open Dataset</source>
        <translation>打开数据集</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Dataset files and folders (*.csv *.csv.gz *-ubyte *-ubyte.gz *.bin *.png *.jpg *.jpeg *.webp *.tif *.tiff *.bmp *.gif)</source>
        <translation>数据集文件和文件夹 (*.csv *.csv.gz *-ubyte *-ubyte.gz *.bin *.png *.jpg *.jpeg *.webp *.tif *.tiff *.bmp *.gif)</translation>
    </message>
</context>
<context>
    <name>ts::ui::DatasetsPage</name>
    <message>
        <source>Open Dataset…</source>
        <translation>打开数据集…</translation>
    </message>
    <message>
        <source>Open &amp;Dataset…</source>
        <translation>打开数据集(&amp;D)…</translation>
    </message>
    <message>
        <source>Detect</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <source>Use in Experiment</source>
        <translation>用于实验</translation>
    </message>
    <message>
        <source>Train the experiment on the dataset shown here</source>
        <translation>让实验使用此处显示的数据集进行训练</translation>
    </message>
    <message>
        <source>New Model for This Dataset</source>
        <translation>为此数据集新建模型</translation>
    </message>
    <message>
        <source>Open the Model page with a model for this dataset&apos;s input shape and classes</source>
        <translation>打开“模型”页，并按此数据集的输入形状和类别数创建模型</translation>
    </message>
    <message>
        <source>Label column:</source>
        <translation>标签列：</translation>
    </message>
    <message>
        <source>Group column:</source>
        <translation>分组列：</translation>
    </message>
    <message>
        <source>Rows sharing a group value never straddle the train / validation split</source>
        <translation>分组值相同的行不会被拆分到训练集和验证集两边</translation>
    </message>
    <message>
        <source>The rows as read; the row numbers are the file&apos;s lines</source>
        <translation>读取到的各行；行号即文件中的行号</translation>
    </message>
    <message>
        <source>Row %1 (line %2)</source>
        <translation>第 %1 行（文件第 %2 行）</translation>
    </message>
    <message>
        <source>Show All</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>划分</translation>
    </message>
    <message>
        <source>Augmentation</source>
        <translation>数据增强</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>健康检查</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Seen</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>The datasets this workspace has seen</source>
        <translation>此工作区见过的数据集</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) have another number of fields than the header (the first on line %1).</source>
        <translation>
            <numerusform>有 %n 行的字段数与表头不同（第一处在第 %1 行）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 training samples</source>
        <translation>%1：%2 个训练样本</translation>
    </message>
    <message>
        <source>, %1 test samples</source>
        <translation>，%1 个测试样本</translation>
    </message>
    <message numerus="yes">
        <source>, %n class(es), samples of %1 (opened in %2 s)</source>
        <translation>
            <numerusform>，%n 个类别，样本形状 %1（打开用时 %2 秒）</numerusform>
        </translation>
    </message>
    <message>
        <source>Training files (%1)</source>
        <translation>训练文件（%1）</translation>
    </message>
    <message>
        <source>Train split (%1)</source>
        <translation>训练集（%1）</translation>
    </message>
    <message>
        <source>Validation split (%1)</source>
        <translation>验证集（%1）</translation>
    </message>
    <message>
        <source>Test files (%1)</source>
        <translation>测试文件（%1）</translation>
    </message>
    <message>
        <source>All samples (%1)</source>
        <translation>全部样本（%1）</translation>
    </message>
    <message>
        <source>All classes (%1)</source>
        <translation>全部类别（%1）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 (%Ln sample(s))</source>
        <translation>
            <numerusform>%1：%2（%Ln 个样本）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln sample(s)</source>
        <translation>
            <numerusform>%1：%Ln 个样本</numerusform>
        </translation>
    </message>
    <message>
        <source>Test sample %1</source>
        <translation>测试样本 %1</translation>
    </message>
    <message>
        <source>Training file sample %1 (validation split)</source>
        <translation>训练文件样本 %1（验证集）</translation>
    </message>
    <message>
        <source>Training file sample %1 (train split)</source>
        <translation>训练文件样本 %1（训练集）</translation>
    </message>
    <message>
        <source>Show Suspect Labels</source>
        <translation>显示可疑标签</translation>
    </message>
    <message>
        <source>The samples whose given label the newest label check contradicts, most confident first</source>
        <translation>最新一次标签检查认为其给定标签有误的样本，置信度最高的排在前面</translation>
    </message>
    <message>
        <source>Relabel To…</source>
        <translation>重新标注为…</translation>
    </message>
    <message>
        <source>Give the selected samples another label (kept in the workspace; the files are not changed)</source>
        <translation>为所选样本指定另一个标签（保存在工作区中；文件不会被修改）</translation>
    </message>
    <message>
        <source>Exclude</source>
        <translation>排除</translation>
    </message>
    <message>
        <source>Leave the selected samples out of training (kept in the workspace; the files are not changed)</source>
        <translation>训练时不使用所选样本（保存在工作区中；文件不会被修改）</translation>
    </message>
    <message>
        <source>Clear Mark</source>
        <translation>清除标记</translation>
    </message>
    <message>
        <source>Show Marked Samples</source>
        <translation>显示已标记的样本</translation>
    </message>
    <message>
        <source>Select samples in the grid, then:</source>
        <translation>在网格中选择样本，然后：</translation>
    </message>
    <message>
        <source>The workspace&apos;s store cannot be used: %1</source>
        <translation>无法使用工作区的存储：%1</translation>
    </message>
    <message>
        <source>%1 sample(s) relabelled, %2 excluded. Training applies the marks; the files stay as they are.</source>
        <translation>已重新标注 %1 个样本，排除 %2 个。训练会应用这些标记；文件保持不变。</translation>
    </message>
    <message>
        <source>marked samples</source>
        <translation>已标记的样本</translation>
    </message>
    <message>
        <source>Reading the newest label check…</source>
        <translation>正在读取最新的标签检查…</translation>
    </message>
    <message>
        <source>suspect labels (K-fold check)</source>
        <translation>可疑标签（K 折检查）</translation>
    </message>
    <message>
        <source>suspect labels (in-sample check)</source>
        <translation>可疑标签（样本内检查）</translation>
    </message>
    <message numerus="yes">
        <source>%n suspect label(s): each caption gives the label, then “?” and the class the model predicts.</source>
        <translation>
            <numerusform>%n 个可疑标签：每个标题先给出标签，然后是“?”和模型预测的类别。</numerusform>
        </translation>
    </message>
    <message>
        <source>The test files cannot be read, so only the training files are shown and training will refuse this dataset until they are replaced: %1</source>
        <translation>测试文件无法读取，因此只显示训练文件；在替换这些文件之前，训练会拒绝使用此数据集：%1</translation>
    </message>
    <message>
        <source>This dataset has no label check yet: run one above (in-sample with a finished run, or K-fold) and look again.</source>
        <translation>此数据集还没有标签检查：请先在上方运行一次（用已完成的运行做样本内检查，或 K 折检查），然后再查看。</translation>
    </message>
    <message>
        <source>Open a dataset&apos;s folder or file: IDX, CIFAR-10 batches, a CSV table or an image folder. You can also drop one on this page.</source>
        <translation>打开数据集的文件夹或文件：IDX、CIFAR-10 批次、CSV 表格或图像文件夹。也可以直接拖放到本页。</translation>
    </message>
    <message>
        <source>Open Dataset &amp;Folder…</source>
        <translation>打开数据集文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Choose a dataset&apos;s folder (an image folder, or IDX or CIFAR-10 files).</source>
        <translation>选择数据集所在的文件夹（图像文件夹，或存放 IDX、CIFAR-10 文件的文件夹）。</translation>
    </message>
    <message>
        <source>The format is told from the files&apos; names. When the guess is wrong, pick it here: the folder or file you opened opens again in that format. With the experiment&apos;s dataset shown, the format you pick is used for the next dataset you open.</source>
        <translation>格式根据文件名判断。判断有误时请在此选择：你打开的文件夹或文件会按所选格式重新打开。若当前显示的是实验的数据集，所选格式将用于你下一次打开的数据集。</translation>
    </message>
    <message>
        <source>The next dataset you open has its format told from its files.</source>
        <translation>下一次打开的数据集将根据其文件判断格式。</translation>
    </message>
    <message>
        <source>The next dataset you open (File &gt; Open Dataset…) is read as %1; the dataset shown stays as it is.</source>
        <translation>下一次打开的数据集（文件 &gt; 打开数据集…）将按%1读取；当前显示的数据集保持不变。</translation>
    </message>
    <message>
        <source>%1 cannot be read as %2: %3</source>
        <translation>无法将 %1 按%2读取：%3</translation>
    </message>
    <message>
        <source>Still shown: %1, read as %2.</source>
        <translation>仍显示：%1（按%2读取）。</translation>
    </message>
    <message>
        <source>Open a dataset (File &gt; Open Dataset…), or drop a dataset folder or file here.

IDX (MNIST, Fashion-MNIST), CIFAR-10 binary batches, CSV tables and image folders (one sub-folder of PNG, JPEG, WebP, TIFF, BMP or GIF images per class) are read.</source>
        <translation>请打开一个数据集（文件 &gt; 打开数据集…），或把数据集文件夹或文件拖放到这里。

可读取 IDX（MNIST、Fashion-MNIST）、CIFAR-10 二进制批次、CSV 表格和图像文件夹（每个类别一个包含 PNG、JPEG、WebP、TIFF、BMP 或 GIF 图像的子文件夹）。</translation>
    </message>
    <message>
        <source>Apply the health report&apos;s fix</source>
        <translation>应用健康报告的修复</translation>
    </message>
    <message>
        <source>Edit the dataset&apos;s settings</source>
        <translation>编辑数据集设置</translation>
    </message>
    <message>
        <source>Use %1 in the experiment</source>
        <translation>在实验中使用 %1</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Lengths</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>, blocks of %1 tokens, %2 token ids (opened in %3 s)</source>
        <translation>，每块 %1 个词元，共 %2 个词元 id（打开用时 %3 秒）</translation>
    </message>
    <message numerus="yes">
        <source>, %n class(es), texts of up to %1 tokens, %2 token ids (opened in %3 s)</source>
        <translation>
            <numerusform>，%n 个类别，文本最多 %1 个词元，共 %2 个词元 id（打开用时 %3 秒）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ts::ui::DiagnosticCards</name>
    <message>
        <source>The loss became NaN or infinite</source>
        <translation>损失变为 NaN 或无穷大</translation>
    </message>
    <message>
        <source>The loss is not improving</source>
        <translation>损失没有下降</translation>
    </message>
    <message>
        <source>The loss is rising</source>
        <translation>损失在上升</translation>
    </message>
    <message>
        <source>The loss oscillates</source>
        <translation>损失在振荡</translation>
    </message>
    <message>
        <source>Gradient norm above 10</source>
        <translation>梯度范数超过 10</translation>
    </message>
    <message>
        <source>Vanishing gradients</source>
        <translation>梯度消失</translation>
    </message>
    <message>
        <source>Overfitting</source>
        <translation>过拟合</translation>
    </message>
    <message>
        <source>The data loader is too slow</source>
        <translation>数据加载太慢</translation>
    </message>
    <message>
        <source>Memory keeps growing</source>
        <translation>内存持续增长</translation>
    </message>
    <message>
        <source>Reserved memory far above allocated</source>
        <translation>保留内存远大于已分配内存</translation>
    </message>
    <message>
        <source>Batch norm with a tiny batch</source>
        <translation>批归一化遇上过小的批</translation>
    </message>
    <message>
        <source>Batch norm right after dropout</source>
        <translation>批归一化紧跟在 Dropout 之后</translation>
    </message>
    <message>
        <source>Batch norm with gradient accumulation</source>
        <translation>批归一化与梯度累积</translation>
    </message>
    <message>
        <source>The fp16 loss scale keeps falling</source>
        <translation>fp16 损失缩放因子持续下降</translation>
    </message>
    <message>
        <source>Accuracy on imbalanced classes</source>
        <translation>在不平衡类别上使用准确率</translation>
    </message>
    <message>
        <source>Resume with learning rate ×0.1</source>
        <translation>以 0.1 倍学习率继续训练</translation>
    </message>
    <message>
        <source>Find a learning rate</source>
        <translation>查找学习率</translation>
    </message>
    <message>
        <source>Open the hyperparameters</source>
        <translation>打开超参数</translation>
    </message>
    <message>
        <source>Open the dataset</source>
        <translation>打开数据集</translation>
    </message>
    <message>
        <source>Open the model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Show the gradient norm</source>
        <translation>显示梯度范数</translation>
    </message>
    <message>
        <source>Evaluate the run (macro F1, AUC)</source>
        <translation>评估本次运行（宏平均 F1、AUC）</translation>
    </message>
    <message>
        <source>Look at samples and labels</source>
        <translation>查看样本和标签</translation>
    </message>
    <message>
        <source>Check the loss function</source>
        <translation>检查损失函数</translation>
    </message>
    <message>
        <source>Check the initialisation</source>
        <translation>检查初始化</translation>
    </message>
    <message>
        <source>Check the normalisation statistics</source>
        <translation>检查归一化统计量</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Needs a run recorded in the workspace</source>
        <translation>需要工作区中已记录的运行</translation>
    </message>
    <message>
        <source>more…</source>
        <translation>更多…</translation>
    </message>
    <message>
        <source>Open this diagnostic&apos;s entry in the glossary</source>
        <translation>在术语表中打开这条诊断的词条</translation>
    </message>
    <message>
        <source>A Transformer without warm-up</source>
        <translation>Transformer 没有预热</translation>
    </message>
    <message>
        <source>Train again with warm-up</source>
        <translation>加上预热重新训练</translation>
    </message>
</context>
<context>
    <name>ts::ui::DistributedLaunch</name>
    <message>
        <source>Training on several processes needs Open MPI&apos;s mpirun (Debian: apt install openmpi-bin).</source>
        <translation>多进程训练需要 Open MPI 的 mpirun（Debian：apt install openmpi-bin）。</translation>
    </message>
    <message>
        <source>trainstudio-cli was not found beside the studio or on the PATH.</source>
        <translation>在工作室程序旁边和 PATH 中都没有找到 trainstudio-cli。</translation>
    </message>
    <message>
        <source>A run on several processes is already training.</source>
        <translation>已有一个多进程运行正在训练。</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot start mpirun: %1</source>
        <translation>无法启动 mpirun：%1</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped (a checkpoint was saved)</source>
        <translation>已停止（已保存检查点）</translation>
    </message>
    <message>
        <source>stopped early</source>
        <translation>已提前停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>已崩溃</translation>
    </message>
    <message>
        <source>failed (exit code %1)</source>
        <translation>失败（退出码 %1）</translation>
    </message>
</context>
<context>
    <name>ts::ui::DocumentActions</name>
    <message>
        <source>&amp;Open Experiment…</source>
        <translation>打开实验(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>还原(&amp;V)</translation>
    </message>
    <message>
        <source>Drop the unsaved changes and read the file again</source>
        <translation>丢弃未保存的更改并重新读取文件</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>No recent experiments</source>
        <translation>没有最近的实验</translation>
    </message>
    <message>
        <source>Cannot open the experiment</source>
        <translation>无法打开实验</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>已打开 %1。</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save changes to %1?</source>
        <translation>保存对 %1 的更改？</translation>
    </message>
    <message>
        <source>It is shipped with TrainStudio: your changes go to a new file.</source>
        <translation>它随 TrainStudio 提供：你的更改将保存到一个新文件。</translation>
    </message>
    <message>
        <source>Your changes are lost if you don&apos;t save them.</source>
        <translation>如果不保存，你的更改将丢失。</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>已保存到 %1。</translation>
    </message>
    <message>
        <source>Save Experiment As</source>
        <translation>实验另存为</translation>
    </message>
    <message>
        <source>Experiments (*.yaml *.yml)</source>
        <translation>实验 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Drop your changes to %1 and read the file again?</source>
        <translation>丢弃对 %1 的更改并重新读取文件？</translation>
    </message>
    <message>
        <source>Cannot revert</source>
        <translation>无法还原</translation>
    </message>
    <message>
        <source>Read %1 again.</source>
        <translation>已重新读取 %1。</translation>
    </message>
    <message>
        <source>Open Experiment</source>
        <translation>打开实验</translation>
    </message>
    <message>
        <source>Experiments (*.yaml *.yml);;All files (*)</source>
        <translation>实验 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>File changed on disk</source>
        <translation>磁盘上的文件已更改</translation>
    </message>
    <message>
        <source>%1 was removed or renamed by another program.</source>
        <translation>%1 已被其他程序删除或重命名。</translation>
    </message>
    <message>
        <source>%1 was changed by another program. Read it again?</source>
        <translation>%1 已被其他程序修改。重新读取吗？</translation>
    </message>
    <message>
        <source>Reading it again drops your unsaved changes here. Keep them to save them over it later.</source>
        <translation>重新读取会丢弃这里未保存的更改。保留它们，以后可以保存覆盖该文件。</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>确定</translation>
    </message>
    <message>
        <source>Keep Mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <source>Cannot reload</source>
        <translation>无法重新加载</translation>
    </message>
</context>
<context>
    <name>ts::ui::EvaluationCurves</name>
    <message>
        <source>False positive rate</source>
        <translation>假正率</translation>
    </message>
    <message>
        <source>True positive rate</source>
        <translation>真正率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>%1 (AUC %2)</source>
        <translation>%1（AUC %2）</translation>
    </message>
    <message>
        <source>%1 (AP %2)</source>
        <translation>%1（AP %2）</translation>
    </message>
    <message>
        <source>chance (AUC 0.5)</source>
        <translation>随机猜测（AUC 0.5）</translation>
    </message>
</context>
<context>
    <name>ts::ui::EvaluationSamples</name>
    <message>
        <source>%1 →&#xa0;%2 (%3&#xa0;%)</source>
        <translation>%1 →&#xa0;%2 (%3&#xa0;%)</translation>
    </message>
    <message>
        <source>Sample %1
True class: %2
Predicted: %3 (%4 %)
Loss −log p(true class): %5</source>
        <translation>样本 %1
真实类别：%2
预测：%3（%4 %）
损失 −log p(真实类别)：%5</translation>
    </message>
</context>
<context>
    <name>ts::ui::EvaluationView</name>
    <message>
        <source>No evaluation yet. Evaluate the run (Runs page &gt; Evaluate, or trainstudio-cli eval RUN) to see its confusion matrix, per-class scores and calibration here.</source>
        <translation>尚无评估。评估此运行（运行记录页 &gt; 评估，或 trainstudio-cli eval RUN）后，这里会显示混淆矩阵、各类别指标和校准。</translation>
    </message>
    <message>
        <source>Evaluation %1 cannot be shown: %2</source>
        <translation>无法显示评估 %1：%2</translation>
    </message>
    <message>
        <source>Evaluation of the %1 split at epoch %2 (%3 samples): accuracy %4 %, macro F1 %5, ECE %6, NLL %7, Brier %8</source>
        <translation>第 %2 轮在 %1 划分上的评估（%3 个样本）：准确率 %4 %，宏平均 F1 %5，ECE %6，NLL %7，Brier %8</translation>
    </message>
    <message>
        <source>; temperature scaling T = %1: ECE %2, NLL %3</source>
        <translation>；温度缩放 T = %1：ECE %2，NLL %3</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>ROC-AUC</source>
        <translation>ROC-AUC</translation>
    </message>
    <message>
        <source>as given</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>scaled</source>
        <translation>缩放后</translation>
    </message>
    <message>
        <source>ideal</source>
        <translation>理想</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>Counts</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Row %</source>
        <translation>行 %</translation>
    </message>
    <message>
        <source>What the cells say; their colour is always the share of the true class&apos;s row</source>
        <translation>单元格中显示的内容；颜色始终表示占真实类别所在行的比例</translation>
    </message>
    <message>
        <source>Worst samples</source>
        <translation>最差样本</translation>
    </message>
    <message>
        <source>Every sample, the most confidently wrong first (highest loss −log p(true class))</source>
        <translation>所有样本，最自信地判错的排在最前（损失 −log p(真实类别) 最高）</translation>
    </message>
    <message>
        <source>Cells:</source>
        <translation>单元格：</translation>
    </message>
    <message>
        <source>Confusion</source>
        <translation>混淆矩阵</translation>
    </message>
    <message>
        <source>Per class</source>
        <translation>各类别</translation>
    </message>
    <message>
        <source>ROC and PR curves</source>
        <translation>ROC 与 PR 曲线</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>AP</source>
        <translation>AP</translation>
    </message>
    <message>
        <source>Class %1</source>
        <translation>类别 %1</translation>
    </message>
    <message>
        <source>Worst samples: all %1, highest loss first</source>
        <translation>最差样本：共 %1 个，损失最高的在前</translation>
    </message>
    <message>
        <source>1 sample: %1 predicted correctly</source>
        <translation>1 个样本：%1 预测正确</translation>
    </message>
    <message>
        <source>%1 samples: %2 predicted correctly</source>
        <translation>%1 个样本：%2 预测正确</translation>
    </message>
    <message>
        <source>1 sample: %1 predicted as %2</source>
        <translation>1 个样本：%1 被预测为 %2</translation>
    </message>
    <message>
        <source>%1 samples: %2 predicted as %3</source>
        <translation>%1 个样本：%2 被预测为 %3</translation>
    </message>
    <message>
        <source>Evaluation of the %1 split at epoch %2 (%3 samples), a regression: MAE %4, RMSE %5, R² %6; predicting the training mean instead: MAE %7, RMSE %8</source>
        <translation>第 %2 轮在%1划分上的评估（%3 个样本），回归：MAE %4，RMSE %5，R² %6；若改为预测训练集均值：MAE %7，RMSE %8</translation>
    </message>
</context>
<context>
    <name>ts::ui::ExperimentDocument</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>%1:%2:%3: %4</source>
        <translation>%1:%2:%3：%4</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 has no file to go back to.</source>
        <translation>%1 没有可以还原的文件。</translation>
    </message>
    <message>
        <source>%1 has no file yet: choose where to save it.</source>
        <translation>%1 还没有文件：请选择保存位置。</translation>
    </message>
    <message>
        <source>%1 is shipped with TrainStudio: save your changes as a new file.</source>
        <translation>%1 随 TrainStudio 提供：请将更改另存为新文件。</translation>
    </message>
    <message>
        <source>%1 is in TrainStudio&apos;s own folder of experiments: choose a folder of yours.</source>
        <translation>%1 位于 TrainStudio 自带的实验文件夹中：请选择你自己的文件夹。</translation>
    </message>
    <message>
        <source>Cannot save %1: %2. Nothing was changed on disk; save it elsewhere with Save As.</source>
        <translation>无法保存 %1：%2。磁盘上没有任何更改；请用“另存为”保存到其他位置。</translation>
    </message>
</context>
<context>
    <name>ts::ui::GeneratePanel</name>
    <message>
        <source>The text the model continues (empty: it starts on its own)</source>
        <translation>模型接着写的文字（留空：由模型自己开头）</translation>
    </message>
    <message>
        <source>How adventurous the drawing is: 0 always takes the most likely token, 1 draws as the model predicts, more than 1 flattens its preferences</source>
        <translation>抽取有多大胆：0 总是取最可能的词元，1 按模型预测的概率抽取，大于 1 会拉平它的偏好</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Draw only among the k most likely tokens (all: among every token)</source>
        <translation>只在最可能的 k 个词元中抽取（全部：在所有词元中抽取）</translation>
    </message>
    <message>
        <source>How many tokens to draw after the prompt</source>
        <translation>在提示之后抽取多少个词元</translation>
    </message>
    <message>
        <source>The same seed with the same settings and checkpoint writes the same text</source>
        <translation>相同的种子、设置和检查点写出相同的文字</translation>
    </message>
    <message>
        <source>The checkpoint whose weights write: the best by the run&apos;s metric, the last saved, or an epoch&apos;s (watch the text improve from epoch to epoch)</source>
        <translation>用哪个检查点的权重来写：按运行指标最好的、最后保存的，或某一轮的（看文字一轮比一轮好）</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>The prompt (highlighted) and what the model writes after it appear here.</source>
        <translation>提示（高亮）和模型在它之后写出的文字显示在这里。</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>提示：</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k 采样：</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>长度：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>Checkpoint:</source>
        <translation>检查点：</translation>
    </message>
    <message>
        <source>Select a language model&apos;s run to write with it.</source>
        <translation>选择一个语言模型的运行，用它来写文字。</translation>
    </message>
    <message>
        <source>Write a prompt and press Generate: the model continues it one token at a time.</source>
        <translation>写一段提示并按“生成”：模型一次一个词元地接着写下去。</translation>
    </message>
    <message>
        <source>This run was not trained on text (dataset format “%1”): only a language model writes text.</source>
        <translation>此运行不是在文本上训练的（数据集格式“%1”）：只有语言模型能写文字。</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>最后</translation>
    </message>
    <message>
        <source>Epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>This run has no checkpoint yet: it writes once it has saved one.</source>
        <translation>此运行还没有检查点：保存一个之后才能写文字。</translation>
    </message>
    <message>
        <source>Generating from %1…</source>
        <translation>正在用%1生成…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Cannot generate: %1</source>
        <translation>无法生成：%1</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n tokens from %1.</source>
        <translation>
            <numerusform>已停止：用%1生成了 %n 个词元。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tokens from %1.</source>
        <translation>
            <numerusform>用%1生成了 %n 个词元。</numerusform>
        </translation>
    </message>
    <message>
        <source>the best checkpoint</source>
        <translation>最佳检查点</translation>
    </message>
    <message>
        <source>the last checkpoint</source>
        <translation>最后的检查点</translation>
    </message>
    <message>
        <source>the checkpoint of epoch %1</source>
        <translation>第 %1 轮的检查点</translation>
    </message>
    <message>
        <source>The prompt has “%1” (U+%2) at byte %3, a character this model never saw in training: write the prompt with the characters of its training text.</source>
        <translation>提示在第 %3 字节处有“%1”（U+%2），这个字符模型在训练中从未见过：请用训练文本里有的字符写提示。</translation>
    </message>
</context>
<context>
    <name>ts::ui::GlossaryBrowser</name>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>Search in English or Chinese</source>
        <translation>用英文或中文搜索</translation>
    </message>
    <message>
        <source>Show the entry in the other language</source>
        <translation>用另一种语言显示这个词条</translation>
    </message>
    <message>
        <source>No entry matches “%1”.</source>
        <translation>没有与“%1”匹配的词条。</translation>
    </message>
    <message>
        <source>The glossary is empty.</source>
        <translation>术语表是空的。</translation>
    </message>
    <message>
        <source>The glossary could not be read: %1</source>
        <translation>无法读取术语表：%1</translation>
    </message>
    <message>
        <source>What it is</source>
        <translation>是什么</translation>
    </message>
    <message>
        <source>When to use it</source>
        <translation>什么时候用</translation>
    </message>
    <message>
        <source>Numbers to start from</source>
        <translation>参考数值</translation>
    </message>
    <message>
        <source>Settings (Hyperparameters page)</source>
        <translation>相关设置（超参数页面）</translation>
    </message>
    <message>
        <source>Diagnostics that point here (Train page)</source>
        <translation>指向这里的诊断（训练页面）</translation>
    </message>
    <message>
        <source>Related</source>
        <translation>相关词条</translation>
    </message>
</context>
<context>
    <name>ts::ui::HealthReportPanel</name>
    <message>
        <source>Reading the latest check…</source>
        <translation>正在读取最近一次检查…</translation>
    </message>
    <message>
        <source>Data check of %1</source>
        <translation>%1 的数据检查</translation>
    </message>
    <message>
        <source>Unreadable or corrupt samples</source>
        <translation>无法读取或损坏的样本</translation>
    </message>
    <message>
        <source>Exact duplicates within a split</source>
        <translation>划分内的完全重复</translation>
    </message>
    <message>
        <source>Exact duplicates across splits (leakage)</source>
        <translation>跨划分的完全重复（泄漏）</translation>
    </message>
    <message>
        <source>Near duplicates within a split</source>
        <translation>划分内的近似重复</translation>
    </message>
    <message>
        <source>Near duplicates across splits (leakage)</source>
        <translation>跨划分的近似重复（泄漏）</translation>
    </message>
    <message>
        <source>Class imbalance</source>
        <translation>类别不平衡</translation>
    </message>
    <message>
        <source>Constant features</source>
        <translation>常量特征</translation>
    </message>
    <message>
        <source>Near-constant features</source>
        <translation>近似常量特征</translation>
    </message>
    <message>
        <source>Label column with too many classes</source>
        <translation>类别过多的标签列</translation>
    </message>
    <message>
        <source>Columns with missing values</source>
        <translation>有缺失值的列</translation>
    </message>
    <message>
        <source>Rows with a wrong number of fields</source>
        <translation>字段数不对的行</translation>
    </message>
    <message>
        <source>%1: ratio %2</source>
        <translation>%1：比值 %2</translation>
    </message>
    <message>
        <source>infinite</source>
        <translation>无穷大</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 与 %2</translation>
    </message>
    <message>
        <source>the table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Health report</source>
        <translation>健康报告</translation>
    </message>
    <message>
        <source>Health report of %1</source>
        <translation>%1 的健康报告</translation>
    </message>
    <message>
        <source>The store cannot be read: %1</source>
        <translation>无法读取存储：%1</translation>
    </message>
    <message>
        <source>Open a dataset to check its health.</source>
        <translation>打开一个数据集以检查其健康状况。</translation>
    </message>
    <message>
        <source>This dataset has not been checked yet: Check now finds corrupt samples, duplicates, leakage between splits and class imbalance.</source>
        <translation>这个数据集还没有检查过：“立即检查”会找出损坏的样本、重复、划分之间的泄漏和类别不平衡。</translation>
    </message>
    <message>
        <source>Checked %1 in %2 s; the files are unchanged since.</source>
        <translation>检查于 %1，用时 %2 秒；此后文件没有变化。</translation>
    </message>
    <message>
        <source>Checked %1, but the files have changed since: this report is out of date. Check again.</source>
        <translation>检查于 %1，但此后文件已改变：这份报告已过期。请重新检查。</translation>
    </message>
    <message>
        <source>Checked %1.</source>
        <translation>检查于 %1。</translation>
    </message>
    <message>
        <source>The reader refused the data: %1</source>
        <translation>读取器拒绝了这些数据：%1</translation>
    </message>
    <message>
        <source>(within %1 of 64 bits)</source>
        <translation>（64 位中相差不超过 %1 位）</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>List these pairs in the grid, side by side</source>
        <translation>在网格中并排列出这些样本对</translation>
    </message>
    <message>
        <source>List these samples in the grid</source>
        <translation>在网格中列出这些样本</translation>
    </message>
    <message>
        <source>Some kinds have more findings than were kept; the counts are exact.</source>
        <translation>某些类别的发现多于保存的数量；计数是准确的。</translation>
    </message>
    <message>
        <source>Class imbalance: open a dataset to count its classes.</source>
        <translation>类别不平衡：打开一个数据集以统计其类别。</translation>
    </message>
    <message>
        <source>The training split&apos;s largest class / smallest class: %1.</source>
        <translation>训练划分的最大类别 / 最小类别：%1。</translation>
    </message>
    <message>
        <source>infinite (a class has no samples)</source>
        <translation>无穷大（某个类别没有样本）</translation>
    </message>
    <message>
        <source>no samples</source>
        <translation>没有样本</translation>
    </message>
    <message>
        <source>Weights n / (k · count) per class: %1.</source>
        <translation>每个类别的权重 n / (k · 计数)：%1。</translation>
    </message>
    <message>
        <source>The loss already uses class weights.</source>
        <translation>损失已经在使用类别权重。</translation>
    </message>
    <message>
        <source>The class-balanced sampler is in use.</source>
        <translation>正在使用类别均衡采样器。</translation>
    </message>
    <message>
        <source>Checks run on the studio&apos;s job queue, which is not available here.</source>
        <translation>检查在工作室的任务队列上运行，这里没有任务队列。</translation>
    </message>
    <message>
        <source>Queue a health check of this dataset on the job queue (the report is kept in the workspace until the files change).</source>
        <translation>将这个数据集的健康检查加入任务队列（报告保存在工作区中，直到文件改变）。</translation>
    </message>
    <message>
        <source>%1: %2 pairs</source>
        <translation>%1：%2 对</translation>
    </message>
    <message>
        <source>%1: %2 samples</source>
        <translation>%1：%2 个样本</translation>
    </message>
    <message>
        <source>Check now</source>
        <translation>立即检查</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Use class weights in the loss</source>
        <translation>在损失中使用类别权重</translation>
    </message>
    <message>
        <source>Weight the CrossEntropy loss by n / (k · count) per class of the training split, so every class counts equally (the loss&apos;s class_weights; replaces the class-balanced sampler).</source>
        <translation>按训练划分每个类别的 n / (k · 计数) 给 CrossEntropy 损失加权，使每个类别同等重要（损失的 class_weights；取代类别均衡采样器）。</translation>
    </message>
    <message>
        <source>Use the class-balanced sampler</source>
        <translation>使用类别均衡采样器</translation>
    </message>
    <message>
        <source>Draw every class equally often in each epoch (dataset.loader.sampler: class_balanced; removes the loss&apos;s class weights).</source>
        <translation>每轮中每个类别被抽取的次数相同（dataset.loader.sampler: class_balanced；移除损失的类别权重）。</translation>
    </message>
    <message>
        <source>damaged PNG</source>
        <translation>损坏的 PNG</translation>
    </message>
    <message>
        <source>damaged JPEG</source>
        <translation>损坏的 JPEG</translation>
    </message>
    <message>
        <source>unsupported image (CMYK)</source>
        <translation>不支持的图像（CMYK）</translation>
    </message>
    <message>
        <source>not an image</source>
        <translation>不是图像</translation>
    </message>
    <message>
        <source>damaged gzip</source>
        <translation>损坏的 gzip</translation>
    </message>
    <message>
        <source>image too large</source>
        <translation>图像过大</translation>
    </message>
    <message>
        <source>NaN or infinite values</source>
        <translation>NaN 或无穷值</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>另有 %1 对</translation>
    </message>
</context>
<context>
    <name>ts::ui::HyperparametersPage</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Learning rate at every step</source>
        <translation>每一步的学习率</translation>
    </message>
    <message>
        <source>Learning-rate finder</source>
        <translation>学习率查找器</translation>
    </message>
    <message>
        <source>No experiment: choose one on the Train page</source>
        <translation>没有实验：请在“训练”页选择一个</translation>
    </message>
    <message>
        <source>Experiment: %1 (modified)</source>
        <translation>实验：%1（已修改）</translation>
    </message>
    <message>
        <source>Experiment: %1</source>
        <translation>实验：%1</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>超参数扫描</translation>
    </message>
    <message>
        <source>Edit sweep</source>
        <translation>编辑扫描</translation>
    </message>
</context>
<context>
    <name>ts::ui::JobsModel</name>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>fork</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>learning-rate finder</source>
        <translation>学习率查找</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>%1 (another process)</source>
        <translation>%1（其他进程）</translation>
    </message>
    <message>
        <source>#%1 %2 · %3</source>
        <translation>#%1 %2 · %3</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>run %1 (%2)</source>
        <translation>运行 %1（%2）</translation>
    </message>
    <message>
        <source>sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>data check</source>
        <translation>数据检查</translation>
    </message>
    <message>
        <source>label check</source>
        <translation>标签检查</translation>
    </message>
    <message>
        <source>one-step memory check</source>
        <translation>单步内存检查</translation>
    </message>
</context>
<context>
    <name>ts::ui::JobsPanel</name>
    <message>
        <source>&amp;Cancel Job</source>
        <translation>取消任务(&amp;C)</translation>
    </message>
    <message>
        <source>Drop the selected queued job, or stop the running one after its current step (a checkpoint is saved) (Del)</source>
        <translation>移除所选的排队任务，或在当前步骤后停止正在运行的任务（会保存检查点）(Del)</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s): %1 running, %2 queued</source>
        <translation>
            <numerusform>%n 个任务：%1 个运行中，%2 个排队中</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ts::ui::LabelCheckPanel</name>
    <message>
        <source>run %1 · %2</source>
        <translation>运行 %1 · %2</translation>
    </message>
    <message>
        <source>Label check with run %1</source>
        <translation>用运行 %1 检查标签</translation>
    </message>
    <message>
        <source>Label check, %1 folds</source>
        <translation>标签检查，%1 折</translation>
    </message>
    <message>
        <source>Checks run on the studio&apos;s job queue, which this view has not got.</source>
        <translation>检查在工作室的任务队列中运行，而此视图没有任务队列。</translation>
    </message>
    <message>
        <source>Looking for runs of this dataset…</source>
        <translation>正在查找此数据集的运行…</translation>
    </message>
    <message>
        <source>No finished run of this dataset yet: train one for the in-sample check, or use K-fold.</source>
        <translation>此数据集还没有已完成的运行：训练一个以进行样本内检查，或使用 K 折检查。</translation>
    </message>
    <message>
        <source>Check the labels</source>
        <translation>检查标签</translation>
    </message>
    <message>
        <source>In-sample, with a run&apos;s best checkpoint (seconds)</source>
        <translation>样本内：使用某次运行的最佳检查点（几秒）</translation>
    </message>
    <message>
        <source>Ranks every training sample by how little the run&apos;s model believes its given label. Fast; a model that memorised a wrong label no longer doubts it.</source>
        <translation>按运行的模型对给定标签的置信度由低到高排列每个训练样本。速度快；但模型一旦记住了错误标签，就不会再怀疑它。</translation>
    </message>
    <message>
        <source>K-fold, out of sample (trains K short models: minutes)</source>
        <translation>K 折：样本外（训练 K 个短模型，需几分钟）</translation>
    </message>
    <message>
        <source>Each sample is scored by a model that never saw it (confident learning): slower, and still right where the model would memorise the wrong labels.</source>
        <translation>每个样本都由从未见过它的模型打分（置信学习）：较慢，但在模型会记住错误标签时仍然可靠。</translation>
    </message>
    <message>
        <source>Folds:</source>
        <translation>折数：</translation>
    </message>
    <message>
        <source>Epochs per fold:</source>
        <translation>每折轮数：</translation>
    </message>
    <message>
        <source>Check Labels</source>
        <translation>检查标签</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
</context>
<context>
    <name>ts::ui::LearnPage</name>
    <message>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>Open the Starting Experiment</source>
        <translation>打开起始实验</translation>
    </message>
    <message>
        <source>Opens the lesson&apos;s experiment on the Train page, as File &gt; Open does</source>
        <translation>在“训练”页打开本课的实验，与“文件 &gt; 打开”相同</translation>
    </message>
    <message>
        <source>Check My Runs</source>
        <translation>检查我的运行</translation>
    </message>
    <message>
        <source>Reads your runs of this lesson&apos;s experiment and says whether the goal is reached (F5)</source>
        <translation>读取你用本课实验做的运行，判断目标是否达成（F5）</translation>
    </message>
    <message>
        <source>Not started</source>
        <translation>未开始</translation>
    </message>
    <message>
        <source>Passed %1</source>
        <translation>已通过 %1</translation>
    </message>
    <message>
        <source>Started %1</source>
        <translation>已开始 %1</translation>
    </message>
    <message>
        <source>Lessons passed: %1 of %2</source>
        <translation>已通过的课程：%1 / %2</translation>
    </message>
    <message>
        <source>Goal: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>已通过</translation>
    </message>
    <message>
        <source>Not yet</source>
        <translation>尚未达成</translation>
    </message>
    <message>
        <source>The lesson&apos;s experiment %1 is not installed: reinstall TrainStudio, or run it from its source tree.</source>
        <translation>本课的实验 %1 未安装：请重新安装 TrainStudio，或从源码目录运行。</translation>
    </message>
    <message>
        <source>Checking your runs…</source>
        <translation>正在检查你的运行…</translation>
    </message>
    <message>
        <source>In the glossary: %1</source>
        <translation>术语表中：%1</translation>
    </message>
</context>
<context>
    <name>ts::ui::LrFinderPanel</name>
    <message>
        <source>Repeat the test from this many seeds (other initial weights and batch order) and draw their band: one seed&apos;s curve can mislead.</source>
        <translation>用这么多个种子（不同的初始权重和批次顺序）重复测试并画出其范围带：单个种子的曲线可能误导。</translation>
    </message>
    <message>
        <source>Optimizer steps of the sweep; the test stops early when the loss passes 4x its best.</source>
        <translation>扫描的优化器步数；当损失超过其最佳值的 4 倍时提前停止。</translation>
    </message>
    <message>
        <source>Find Learning Rate</source>
        <translation>查找学习率</translation>
    </message>
    <message>
        <source>Train a few steps while the learning rate grows exponentially, and read the best rate off the loss curve. Nothing is recorded; the experiment is not changed.</source>
        <translation>在学习率指数增长的同时训练若干步，从损失曲线读出最佳学习率。不记录任何运行，实验也不会改变。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Seeds:</source>
        <translation>种子数：</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>步数：</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>从：</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>到：</translation>
    </message>
    <message>
        <source>Run the test to see the loss against the learning rate</source>
        <translation>运行测试以查看损失随学习率的变化</translation>
    </message>
    <message>
        <source>%1: learning-rate test, seed %2</source>
        <translation>%1：学习率测试，种子 %2</translation>
    </message>
    <message numerus="yes">
        <source>Queued %n test(s).</source>
        <translation>
            <numerusform>已排队 %n 个测试。</numerusform>
        </translation>
    </message>
    <message>
        <source>Seed %1: step %2, learning rate %3</source>
        <translation>种子 %1：第 %2 步，学习率 %3</translation>
    </message>
    <message numerus="yes">
        <source>Finished %n seed(s).</source>
        <translation>
            <numerusform>已完成 %n 个种子。</numerusform>
        </translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>The test was stopped before it could suggest a rate.</source>
        <translation>测试在给出建议学习率之前被停止。</translation>
    </message>
    <message>
        <source>valley %1</source>
        <translation>谷值 %1</translation>
    </message>
    <message>
        <source>steepest %1</source>
        <translation>最陡 %1</translation>
    </message>
    <message>
        <source>minimum ÷ 10 %1</source>
        <translation>最小值 ÷ 10 %1</translation>
    </message>
    <message>
        <source>Apply valley %1</source>
        <translation>应用谷值 %1</translation>
    </message>
    <message>
        <source>The suggested rate: halfway along the longest stretch over which the loss keeps falling.</source>
        <translation>损失持续下降的最长区段的中点。</translation>
    </message>
    <message>
        <source>Apply steepest %1</source>
        <translation>应用最陡 %1</translation>
    </message>
    <message>
        <source>Where the loss falls fastest against the logarithm of the rate.</source>
        <translation>损失随学习率对数下降最快之处。</translation>
    </message>
    <message>
        <source>Apply minimum ÷ 10: %1</source>
        <translation>应用最小值 ÷ 10：%1</translation>
    </message>
    <message>
        <source>The rate of the lowest loss divided by 10: the cautious rule.</source>
        <translation>最低损失处的学习率除以 10：保守的规则。</translation>
    </message>
    <message>
        <source>Suggested: the median of the three rules, wrong only when two of them are.</source>
        <translation>建议值：三条规则的中位数，只有当其中两条都出错时才会出错。</translation>
    </message>
    <message numerus="yes">
        <source>Read off the mean of %n seeds over the %1 steps all of them reached.</source>
        <translation>
            <numerusform>取自 %n 个种子在它们都到达的 %1 步上的平均值。</numerusform>
        </translation>
    </message>
    <message>
        <source>Read off one seed&apos;s %1 steps; more seeds draw a band and show how far to trust it.</source>
        <translation>取自一个种子的 %1 步；更多种子会画出范围带，显示结果有多可信。</translation>
    </message>
    <message>
        <source>The rules disagree by %1x: the curve has no clear answer. Try more seeds or more steps, and prefer the lower rates.</source>
        <translation>各规则相差 %1 倍：曲线没有明确答案。请尝试更多种子或更多步数，并优先选择较低的学习率。</translation>
    </message>
    <message>
        <source>The seeds&apos; suggestions differ by %1x: one seed&apos;s curve would have misled.</source>
        <translation>各种子的建议相差 %1 倍：单个种子的曲线会误导。</translation>
    </message>
    <message>
        <source>As the peak of a one-cycle schedule</source>
        <translation>作为单周期调度的峰值</translation>
    </message>
    <message>
        <source>The range test finds the top of a cyclical schedule (Smith, 2015; fastai pairs its finder with one-cycle). Checked, Apply switches the schedule to one-cycle peaking at the rate, which trains further in few epochs; unchecked, the rate replaces optimizer.lr and the schedule stays.</source>
        <translation>范围测试找的是周期性调度的上限（Smith，2015；fastai 把学习率查找器与单周期调度配合使用）。勾选时，“应用”会把调度改为以该学习率为峰值的单周期调度，在很少的轮数内训练得更充分；不勾选时，该学习率替换 optimizer.lr，调度保持不变。</translation>
    </message>
    <message>
        <source>Apply finder: one-cycle peak %1, warm-up %2</source>
        <translation>应用查找结果：单周期峰值 %1，预热 %2</translation>
    </message>
    <message>
        <source>Apply finder: learning rate %1</source>
        <translation>应用查找结果：学习率 %1</translation>
    </message>
    <message numerus="yes">
        <source> with %n warm-up step(s)</source>
        <translation>
            <numerusform>（含 %n 个预热步）</numerusform>
        </translation>
    </message>
    <message>
        <source>Apply replaces the %1 schedule%2 by one-cycle (its own warm-up, none of the old settings). Edit &gt; Undo takes it back.</source>
        <translation>“应用”会把 %1 调度%2替换为单周期（使用其自身的预热，不保留旧设置）。可用“编辑 &gt; 撤销”恢复。</translation>
    </message>
</context>
<context>
    <name>ts::ui::MainWindow</name>
    <message>
        <source>Device: %1</source>
        <translation>设备：%1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About TrainStudio</source>
        <translation>关于 TrainStudio(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>About TrainStudio</source>
        <translation>关于 TrainStudio</translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Show the job queue (Ctrl+J)</source>
        <translation>显示任务队列 (Ctrl+J)</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>&amp;Jobs</source>
        <translation>任务(&amp;J)</translation>
    </message>
    <message>
        <source>Quit TrainStudio</source>
        <translation>退出 TrainStudio</translation>
    </message>
    <message>
        <source>A job is running. Stop it and quit? It stops after the current step and saves a checkpoint, so it can be resumed later.</source>
        <translation>有任务正在运行。要停止它并退出吗？它会在当前步骤后停止并保存检查点，以后可以继续。</translation>
    </message>
    <message numerus="yes">
        <source>%n queued job(s) will not start.</source>
        <translation>
            <numerusform>%n 个排队任务将不会开始。</numerusform>
        </translation>
    </message>
    <message>
        <source>Stop and Quit</source>
        <translation>停止并退出</translation>
    </message>
    <message>
        <source>Keep Training</source>
        <translation>继续训练</translation>
    </message>
    <message>
        <source>Stopping: the current step finishes and a checkpoint is saved…</source>
        <translation>正在停止：当前步骤完成后保存检查点…</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>&amp;Glossary</source>
        <translation>术语表(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
</context>
<context>
    <name>ts::ui::ModelDiffView</name>
    <message>
        <source>Split:</source>
        <translation>划分：</translation>
    </message>
    <message>
        <source>View as Images</source>
        <translation>以图像查看</translation>
    </message>
    <message>
        <source>Show these samples (or the selected ones) as images, with the predictions of the run that gets them wrong; double-click a row for the selected samples</source>
        <translation>以图像显示这些样本（或所选样本），并附上判错的那次运行的预测；双击某行可只看所选样本</translation>
    </message>
    <message>
        <source>Cannot read the evaluations: %1</source>
        <translation>无法读取评估：%1</translation>
    </message>
    <message>
        <source>Select exactly two runs to compare their evaluations sample by sample.</source>
        <translation>请恰好选择两次运行，以逐样本比较它们的评估。</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>These two runs have no evaluation on a common split (run %1: %2; run %3: %4). Evaluate both on the same split to compare them sample by sample: select each run alone and choose Evaluate on the Runs page&apos;s toolbar, or run trainstudio-cli eval RUN --split test.</source>
        <translation>这两次运行没有在同一划分上的评估（运行 %1：%2；运行 %3：%4）。请在同一划分上评估两者后再逐样本比较：单独选中每次运行，然后在“运行”页工具栏上选择“评估”，或运行 trainstudio-cli eval RUN --split test。</translation>
    </message>
    <message>
        <source>Run %1 was evaluated with %2 classes and run %3 with %4: they were trained on different datasets and cannot be compared sample by sample.</source>
        <translation>运行 %1 的评估有 %2 个类别，运行 %3 有 %4 个：它们在不同的数据集上训练，无法逐样本比较。</translation>
    </message>
    <message>
        <source>Comparing the evaluations of runs %1 and %2 on the %3 split…</source>
        <translation>正在比较运行 %1 和 %2 在 %3 划分上的评估…</translation>
    </message>
    <message>
        <source>The evaluations of runs %1 and %2 cannot be compared: %3</source>
        <translation>运行 %1 和 %2 的评估无法比较：%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; = %1, epoch %2: accuracy %3 % &amp;nbsp; &lt;b&gt;B&lt;/b&gt; = %4, epoch %5: accuracy %6 % &amp;nbsp; (%7 samples)</source>
        <translation>&lt;b&gt;A&lt;/b&gt; = %1，第 %2 轮：准确率 %3 % &amp;nbsp; &lt;b&gt;B&lt;/b&gt; = %4，第 %5 轮：准确率 %6 % &amp;nbsp;（%7 个样本）</translation>
    </message>
    <message>
        <source>A right, B wrong: %1</source>
        <translation>A 对、B 错：%1</translation>
    </message>
    <message>
        <source>B right, A wrong: %1</source>
        <translation>B 对、A 错：%1</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Recall A</source>
        <translation>A 的召回率</translation>
    </message>
    <message>
        <source>Recall B</source>
        <translation>B 的召回率</translation>
    </message>
    <message>
        <source>Δ recall</source>
        <translation>Δ 召回率</translation>
    </message>
    <message>
        <source>Δ F1</source>
        <translation>Δ F1</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>B − A, in percentage points</source>
        <translation>B − A，以百分点计</translation>
    </message>
    <message>
        <source>F1 of B − F1 of A, in percentage points (precision and recall together)</source>
        <translation>B 的 F1 − A 的 F1，以百分点计（综合精确率与召回率）</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>A predicts</source>
        <translation>A 的预测</translation>
    </message>
    <message>
        <source>A confidence</source>
        <translation>A 的置信度</translation>
    </message>
    <message>
        <source>B predicts</source>
        <translation>B 的预测</translation>
    </message>
    <message>
        <source>B confidence</source>
        <translation>B 的置信度</translation>
    </message>
    <message>
        <source>Run %1 right, run %2 wrong (%3 split)</source>
        <translation>运行 %1 对、运行 %2 错（%3 划分）</translation>
    </message>
    <message>
        <source>Cannot read the predictions: %1</source>
        <translation>无法读取预测：%1</translation>
    </message>
    <message>
        <source>Classes are shown by number: the dataset cannot be opened (%1).</source>
        <translation>类别以编号显示：无法打开数据集（%1）。</translation>
    </message>
</context>
<context>
    <name>ts::ui::ModelPage</name>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Set %1 of %2</source>
        <translation>设置 %2 的 %1</translation>
    </message>
    <message>
        <source>Reset %1 of %2</source>
        <translation>重置 %2 的 %1</translation>
    </message>
    <message>
        <source>Rename %1 to %2</source>
        <translation>将 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>Checkpoint %1</source>
        <translation>为 %1 启用检查点</translation>
    </message>
    <message>
        <source>Stop checkpointing %1</source>
        <translation>取消 %1 的检查点</translation>
    </message>
    <message>
        <source>Disconnect %1 from %2</source>
        <translation>断开 %1 与 %2 的连接</translation>
    </message>
    <message numerus="yes">
        <source>Move %n node(s)</source>
        <translation>
            <numerusform>移动 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Expand block %1</source>
        <translation>展开块 %1</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <source>Connect %1 to %2</source>
        <translation>将 %1 连接到 %2</translation>
    </message>
    <message>
        <source>Add %1 after %2</source>
        <translation>在 %2 之后添加 %1</translation>
    </message>
    <message>
        <source>Add %1 before %2</source>
        <translation>在 %2 之前添加 %1</translation>
    </message>
    <message>
        <source>Hand this model to the Train page</source>
        <translation>将此模型交给“训练”页面</translation>
    </message>
    <message>
        <source>Fix the problems first: the model does not check</source>
        <translation>请先修复问题：模型未通过检查</translation>
    </message>
    <message>
        <source>line %1:%2: %3</source>
        <translation>第 %1 行第 %2 列：%3</translation>
    </message>
    <message>
        <source>No problems: the model checks.</source>
        <translation>没有问题：模型通过检查。</translation>
    </message>
    <message>
        <source>Select a node to edit it.</source>
        <translation>选择一个节点以进行编辑。</translation>
    </message>
    <message numerus="yes">
        <source>%n nodes selected.</source>
        <translation>
            <numerusform>已选择 %n 个节点。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is a model input: its shape comes from the dataset.</source>
        <translation>%1 是模型输入：其形状来自数据集。</translation>
    </message>
    <message>
        <source>Model: %1%2</source>
        <translation>模型：%1%2</translation>
    </message>
    <message>
        <source> (modified)</source>
        <translation>（已修改）</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>多层感知机 (MLP)</translation>
    </message>
    <message>
        <source>CNN (the shipped Fashion-MNIST model)</source>
        <translation>CNN（随附的 Fashion-MNIST 模型）</translation>
    </message>
    <message>
        <source>Small ResNet</source>
        <translation>小型 ResNet</translation>
    </message>
    <message>
        <source>LeNet-5</source>
        <translation>LeNet-5 卷积网络</translation>
    </message>
    <message>
        <source>Model of %1</source>
        <translation>%1 的模型</translation>
    </message>
    <message>
        <source>New model from a template; the input shape and class count follow the experiment&apos;s data</source>
        <translation>从模板新建模型；输入形状和类别数取自实验的数据</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Cut</source>
        <translation>剪切</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>创建副本</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>全选</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>组合</translation>
    </message>
    <message>
        <source>Ungroup</source>
        <translation>取消组合</translation>
    </message>
    <message>
        <source>Ungroup %1</source>
        <translation>取消组合 %1</translation>
    </message>
    <message>
        <source>Collapse/Expand</source>
        <translation>折叠/展开</translation>
    </message>
    <message>
        <source>Collapse block %1</source>
        <translation>折叠块 %1</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>激活检查点</translation>
    </message>
    <message numerus="yes">
        <source>Stop checkpointing %n node(s)</source>
        <translation>
            <numerusform>取消 %n 个节点的检查点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Checkpoint %n node(s)</source>
        <translation>
            <numerusform>为 %n 个节点启用检查点</numerusform>
        </translation>
    </message>
    <message>
        <source>Activation checkpointing: drop these nodes&apos; activations after the forward pass and recompute them in backward (less memory, about a third more compute for them)</source>
        <translation>激活检查点：在前向传播后丢弃这些节点的激活值，并在反向传播时重新计算（占用内存更少，这些节点的计算量约增加三分之一）</translation>
    </message>
    <message>
        <source>Arrange</source>
        <translation>自动排列</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应视图</translation>
    </message>
    <message>
        <source>Export Image…</source>
        <translation>导出图像…</translation>
    </message>
    <message>
        <source>Export the drawing</source>
        <translation>导出图形</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 图形 (*.svg)</translation>
    </message>
    <message>
        <source>Train This Model</source>
        <translation>训练此模型</translation>
    </message>
    <message>
        <source>Cannot make that model: %1</source>
        <translation>无法创建该模型：%1</translation>
    </message>
    <message numerus="yes">
        <source>Group %n node(s) as %1</source>
        <translation>
            <numerusform>将 %n 个节点组合为 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Paste %n node(s)</source>
        <translation>
            <numerusform>粘贴 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Model inputs come from the dataset and cannot be deleted.</source>
        <translation>模型输入来自数据集，无法删除。</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n node(s)</source>
        <translation>
            <numerusform>删除 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Exported the drawing to %1.</source>
        <translation>已将图形导出到 %1。</translation>
    </message>
    <message>
        <source>Undo %1</source>
        <translation>撤销“%1”</translation>
    </message>
    <message>
        <source>Redo %1</source>
        <translation>重做“%1”</translation>
    </message>
    <message numerus="yes">
        <source>Arrange %n node(s)</source>
        <translation>
            <numerusform>自动排列 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>The model cannot train: %1</source>
        <translation>该模型无法训练：%1</translation>
    </message>
    <message>
        <source>Add %1 Loss</source>
        <translation>添加 %1 损失</translation>
    </message>
    <message>
        <source>Adds a %1 node fed by the model&apos;s output and the labels (undo removes it)</source>
        <translation>添加一个以模型输出和标签为输入的 %1 节点（撤销即可移除）</translation>
    </message>
    <message>
        <source>Double-click, or press %1, to add it</source>
        <translation>双击此项或点击“%1”即可添加</translation>
    </message>
    <message>
        <source>The model has no loss, so it cannot train. Add a loss node fed by the output and the label input: CrossEntropy for class scores against class indices, MSE for regression.</source>
        <translation>模型没有损失节点，因此无法训练。请添加一个以输出和标签输入为输入的损失节点：类别得分对类别索引用 CrossEntropy，回归用 MSE。</translation>
    </message>
    <message>
        <source>The model has no loss, so it cannot train. Add %1 after %2: it compares the output with the labels.</source>
        <translation>模型没有损失节点，因此无法训练。请在 %2 之后添加 %1：它将输出与标签进行比较。</translation>
    </message>
    <message>
        <source>Add the loss %1</source>
        <translation>添加损失 %1</translation>
    </message>
    <message>
        <source>Added the loss %1 (%2).</source>
        <translation>已添加损失 %1（%2）。</translation>
    </message>
    <message>
        <source>A Transformer block reads vectors, and %1 holds token ids: put an Embedding between them.</source>
        <translation>Transformer 块读取的是向量，而 %1 里是词元编号：请在两者之间放一个 Embedding。</translation>
    </message>
    <message>
        <source>A Transformer block reads a sequence of vectors [tokens, width]; %1 gives %2.</source>
        <translation>Transformer 块读取向量序列 [词元数, 宽度]；%1 给出的是 %2。</translation>
    </message>
    <message>
        <source>causal, as the model&apos;s attention is</source>
        <translation>因果注意力，与模型中已有的注意力一致</translation>
    </message>
    <message>
        <source>Cannot add a Transformer block: %1</source>
        <translation>无法添加 Transformer 块：%1</translation>
    </message>
    <message>
        <source>%1%2. Wire its inputs: ln1 and the residual add1 take the same vectors.</source>
        <translation>%1%2。请连接它的输入：ln1 和残差 add1 接收同一组向量。</translation>
    </message>
    <message>
        <source>%1%2, after %3. Double-click it to open it.</source>
        <translation>%1%2，位于 %3 之后。双击可展开。</translation>
    </message>
    <message>
        <source>the input&apos;s width is unknown: set fc2&apos;s out_features to the model&apos;s width</source>
        <translation>输入的宽度未知：请把 fc2 的 out_features 设为模型的宽度</translation>
    </message>
    <message>
        <source>4 heads do not divide the width</source>
        <translation>4 个头不能整除宽度</translation>
    </message>
    <message>
        <source>Added %1, a Transformer block of %2 nodes: width %3, heads %4</source>
        <translation>已添加 %1，一个含 %2 个节点的 Transformer 块：宽度 %3，头数 %4</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>ts::ui::ModelSummaryPanel</name>
    <message>
        <source>f32 (exact)</source>
        <translation>f32（精确）</translation>
    </message>
    <message>
        <source>tf32 (GPU)</source>
        <translation>tf32（GPU）</translation>
    </message>
    <message>
        <source>bf16 mixed</source>
        <translation>bf16 混合精度</translation>
    </message>
    <message>
        <source>f16 mixed</source>
        <translation>f16 混合精度</translation>
    </message>
    <message>
        <source>The batch size the memory is planned for (the experiment&apos;s, until you change it here)</source>
        <translation>规划内存时所用的批大小（默认取实验的批大小，可在此处更改）</translation>
    </message>
    <message>
        <source>Adam and AdamW keep two state tensors per weight, SGD with momentum one, plain SGD none</source>
        <translation>Adam 和 AdamW 为每个权重保存两个状态张量，带动量的 SGD 保存一个，普通 SGD 不保存</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <source>FLOPs per sample:</source>
        <translation>每个样本的 FLOPs：</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Training memory:</source>
        <translation>训练内存：</translation>
    </message>
    <message>
        <source>Largest batch:</source>
        <translation>最大批大小：</translation>
    </message>
    <message>
        <source>not known until the model checks (see Problems)</source>
        <translation>模型通过检查前无法得知（见“问题”）</translation>
    </message>
    <message>
        <source>not known: %1</source>
        <translation>未知：%1</translation>
    </message>
    <message>
        <source>%1 in all: parameters %2, gradients %3, optimizer state %4, activations %5, workspace %6</source>
        <translation>共 %1：参数 %2，梯度 %3，优化器状态 %4，激活值 %5，工作空间 %6</translation>
    </message>
    <message>
        <source>unknown: %1 does not say how much memory is free</source>
        <translation>未知：%1 未报告可用内存大小</translation>
    </message>
    <message>
        <source>Confirm with one step</source>
        <translation>用一步训练确认</translation>
    </message>
    <message>
        <source>One step:</source>
        <translation>单步确认：</translation>
    </message>
    <message>
        <source>one step at batch %1: peak %2 (planned %3), %4 ms</source>
        <translation>批量 %1 的一步：峰值 %2（计划 %3），%4 毫秒</translation>
    </message>
    <message>
        <source>The largest batch whose planned training memory fits in the free memory less a margin the machine keeps for itself: the larger of 1 GiB and 20% of the available RAM, or of 512 MiB and 10% of a GPU&apos;s free memory. Past the free RAM the system swaps, then kills the program.</source>
        <translation>计划训练内存能放进空闲内存（减去为机器保留的余量）的最大批量：余量取 1 GiB 与可用内存 20% 中的较大者；GPU 则取 512 MiB 与其空闲显存 10% 中的较大者。超出空闲内存后，系统会先使用交换空间，然后终止程序。</translation>
    </message>
    <message>
        <source>Runs one real training step on synthetic data, as a job, at the largest batch that fits with the margin, and measures the memory it takes. Its memory is checked against what is free first; on the CPU that much RAM is in use for a moment.</source>
        <translation>以作业方式在合成数据上、按留出余量后能放下的最大批量运行一次真实的训练步，并测量它占用的内存。运行前先核对所需内存与空闲内存；在 CPU 上，这么多内存会被短暂占用。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the one-step check (a step under way stops at its next phase)</source>
        <translation>停止单步检查（正在进行的训练步会在下一阶段停止）</translation>
    </message>
    <message>
        <source>Needs the studio&apos;s job queue</source>
        <translation>需要工作室的作业队列</translation>
    </message>
    <message>
        <source>none: even batch 1 needs more than the %1 usable on %2 (%3 free, %4 of it kept free for the system)</source>
        <translation>无：即使批量为 1，所需内存也超过 %2 上可用的 %1（空闲 %3，其中 %4 为系统保留）</translation>
    </message>
    <message>
        <source>%1 on %2 (%3 free, %4 of it kept free for the system)</source>
        <translation>%2 上为 %1（空闲 %3，其中 %4 为系统保留）</translation>
    </message>
    <message>
        <source>waiting for the job queue: the step runs after the jobs ahead of it</source>
        <translation>正在等待作业队列：排在前面的作业完成后才运行此训练步</translation>
    </message>
    <message>
        <source>stopping the one-step check…</source>
        <translation>正在停止单步检查…</translation>
    </message>
    <message>
        <source>checking the memory…</source>
        <translation>正在检查内存…</translation>
    </message>
    <message>
        <source>refused before it allocated: %1</source>
        <translation>在分配内存之前已拒绝：%1</translation>
    </message>
    <message>
        <source>the one-step check failed: %1</source>
        <translation>单步检查失败：%1</translation>
    </message>
    <message>
        <source>%1 at the largest batch that fits</source>
        <translation>%1，按能放下的最大批量</translation>
    </message>
    <message>
        <source>%1 at batch %2</source>
        <translation>%1，批量 %2</translation>
    </message>
</context>
<context>
    <name>ts::ui::NodeProperties</name>
    <message>
        <source>&quot;%1&quot; is not a whole number</source>
        <translation>&quot;%1&quot; 不是整数</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation>&quot;%1&quot; 不是数值</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is neither true nor false</source>
        <translation>&quot;%1&quot; 既不是 true 也不是 false</translation>
    </message>
    <message>
        <source>The node&apos;s name, unique in the model; other nodes name it as their input.</source>
        <translation>节点的名称，在模型中唯一；其他节点用它来指定自己的输入。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Checkpoint activations</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>Memory for time: this node&apos;s activations are dropped after the forward pass and computed again in backward (about a third more compute for the marked nodes). Mark a run of consecutive nodes, such as a block of a deep network, when activations do not fit.</source>
        <translation>以时间换内存：该节点的激活值在前向传播后被丢弃，并在反向传播时重新计算（被标记节点的计算量约增加三分之一）。当激活值占用的内存放不下时，可标记一段连续的节点，例如深层网络中的一个块。</translation>
    </message>
    <message>
        <source>Select a node to edit it</source>
        <translation>选择一个节点以进行编辑</translation>
    </message>
    <message>
        <source>The engine has no op &quot;%1&quot;: its attributes are shown as written, read-only. Change the op in the experiment file, or delete the node and add one from the palette.</source>
        <translation>引擎中没有算子 &quot;%1&quot;：其属性按原样只读显示。请在实验文件中更改算子，或删除该节点并从算子面板中添加一个新节点。</translation>
    </message>
    <message>
        <source>This op has no attributes.</source>
        <translation>此算子没有属性。</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>e.g. 3, 3</source>
        <translation>例如 3, 3</translation>
    </message>
    <message>
        <source>e.g. 1, 2, 3</source>
        <translation>例如 1, 2, 3</translation>
    </message>
    <message>
        <source>Reset %1 to its default</source>
        <translation>将 %1 重置为默认值</translation>
    </message>
    <message>
        <source>Remove %1 from the node</source>
        <translation>从节点中移除 %1</translation>
    </message>
    <message>
        <source>%1 takes no attribute &quot;%2&quot;; remove it with ↺.</source>
        <translation>%1 没有属性 &quot;%2&quot;；请用 ↺ 将其移除。</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>A node needs a name; kept &quot;%1&quot;.</source>
        <translation>节点需要名称；已保留 &quot;%1&quot;。</translation>
    </message>
</context>
<context>
    <name>ts::ui::OnnxExportDialog</name>
    <message>
        <source>Export Run %1 as ONNX</source>
        <translation>将运行 %1 导出为 ONNX</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>最后</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Add a probabilities output (softmax)</source>
        <translation>增加概率输出（softmax）</translation>
    </message>
    <message>
        <source>Int8 weights (about 4× smaller; accuracy within a fraction of a percent)</source>
        <translation>Int8 权重（约小 4 倍；准确率变化不到百分之一）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Checkpoint:</source>
        <translation>检查点：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Export as ONNX</source>
        <translation>导出为 ONNX</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX 模型 (*.onnx)</translation>
    </message>
    <message>
        <source>Choose the file to write.</source>
        <translation>请选择要写入的文件。</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>未导出：%1</translation>
    </message>
    <message>
        <source>Wrote %1 (%2, %3 ONNX nodes, epoch %4%5).</source>
        <translation>已写入 %1（%2，%3 个 ONNX 节点，第 %4 轮%5）。</translation>
    </message>
    <message>
        <source>; temperature %1 in the metadata</source>
        <translation>；元数据中的温度为 %1</translation>
    </message>
</context>
<context>
    <name>ts::ui::OpPalette</name>
    <message>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Pooling</source>
        <translation>池化</translation>
    </message>
    <message>
        <source>Structure</source>
        <translation>结构</translation>
    </message>
    <message>
        <source>Losses</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Search ops</source>
        <translation>搜索算子</translation>
    </message>
    <message>
        <source>Filters by name and description. Enter adds the first op found; Down moves into the list.</source>
        <translation>按名称和描述筛选。按 Enter 添加找到的第一个算子；按向下键进入列表。</translation>
    </message>
    <message>
        <source>Transformer block</source>
        <translation>Transformer 块</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Transformer block&lt;/b&gt; (pre-norm): LayerNorm, multi-head attention, dropout and a residual connection, then LayerNorm, an MLP (Linear four times as wide, GELU, Linear), dropout and a second residual.&lt;/p&gt;&lt;p&gt;Drop it on a node, or select one and double-click here: the block takes that node&apos;s output and width, and what read that node reads the block. It arrives as one collapsed group; double-click the group to open and edit any part.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Transformer 块&lt;/b&gt;（前置归一化）：LayerNorm、多头注意力、Dropout 和一条残差连接，然后是 LayerNorm、一个 MLP（四倍宽的 Linear、GELU、Linear）、Dropout 和第二条残差。&lt;/p&gt;&lt;p&gt;把它拖到一个节点上，或先选中一个节点再双击这里：块接收该节点的输出和宽度，原先读取该节点的节点改为读取这个块。它以一个折叠的组出现；双击该组即可展开并编辑其中任何部分。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Recurrent</source>
        <translation>循环网络</translation>
    </message>
</context>
<context>
    <name>ts::ui::OpPopup</name>
    <message>
        <source>Type to search ops</source>
        <translation>输入以搜索算子</translation>
    </message>
    <message>
        <source>No op matches.</source>
        <translation>没有匹配的算子。</translation>
    </message>
    <message>
        <source>pre-norm attention and MLP with residuals, as a group</source>
        <translation>前置归一化的注意力与 MLP，带残差连接，作为一组</translation>
    </message>
</context>
<context>
    <name>ts::ui::OptionEditor</name>
    <message>
        <source>One of: %1</source>
        <translation>可选值：%1</translation>
    </message>
    <message>
        <source>For example: %1</source>
        <translation>例如：%1</translation>
    </message>
    <message>
        <source>Values separated by commas, increasing, each %1</source>
        <translation>以逗号分隔的值，递增，每个 %1</translation>
    </message>
    <message>
        <source>Values separated by commas</source>
        <translation>以逗号分隔的值</translation>
    </message>
    <message>
        <source>Values separated by commas, each %1</source>
        <translation>以逗号分隔的值，每个 %1</translation>
    </message>
    <message>
        <source>Allowed: %1</source>
        <translation>允许：%1</translation>
    </message>
    <message>
        <source>e.g. %1</source>
        <translation>例如 %1</translation>
    </message>
    <message>
        <source>more…</source>
        <translation>更多…</translation>
    </message>
    <message>
        <source>Set %1 to %2</source>
        <translation>将%1设为 %2</translation>
    </message>
</context>
<context>
    <name>ts::ui::ParallelCoordinates</name>
    <message>
        <source>The result drawn as the last axis, and by which the lines are coloured</source>
        <translation>作为最后一根轴绘制、并用于给折线着色的结果</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>结果：</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>The selected runs differ in no setting and share no result: there is nothing to draw.</source>
        <translation>所选运行的设置没有差异，也没有共同的结果：无可绘制。</translation>
    </message>
    <message>
        <source>The selected runs differ in no setting: there is one axis only.</source>
        <translation>所选运行的设置没有差异：只有一根轴。</translation>
    </message>
    <message>
        <source>%1 (log)</source>
        <translation>%1（对数）</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
</context>
<context>
    <name>ts::ui::PredictionPanel</name>
    <message>
        <source>Choose an image…</source>
        <translation>选择图像…</translation>
    </message>
    <message>
        <source>Predict an image</source>
        <translation>预测图像</translation>
    </message>
    <message>
        <source>Drop an image here</source>
        <translation>将图像拖放到此处</translation>
    </message>
    <message>
        <source>Drop a PNG or JPEG image here to see what this run&apos;s best checkpoint predicts.</source>
        <translation>将 PNG 或 JPEG 图像拖放到此处，查看此运行的最佳检查点的预测结果。</translation>
    </message>
    <message>
        <source>Predicting %1…</source>
        <translation>正在预测 %1…</translation>
    </message>
    <message>
        <source>(cannot show this image)</source>
        <translation>（无法显示此图像）</translation>
    </message>
    <message>
        <source>Cannot predict %1: %2</source>
        <translation>无法预测 %1：%2</translation>
    </message>
    <message>
        <source>%1: %2 (epoch %3 checkpoint)</source>
        <translation>%1：%2（第 %3 轮的检查点）</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp *.tif *.tiff *.bmp *.gif)</source>
        <translation>图像 (*.png *.jpg *.jpeg *.webp *.tif *.tiff *.bmp *.gif)</translation>
    </message>
    <message>
        <source>Type or paste a text to classify</source>
        <translation>输入或粘贴要分类的文本</translation>
    </message>
    <message>
        <source>Classify</source>
        <translation>分类</translation>
    </message>
    <message>
        <source>Classify the text with this run&apos;s best checkpoint (Ctrl+Return)</source>
        <translation>用此运行的最佳检查点对文本分类（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Type a text and press Classify to see which class this run&apos;s best checkpoint gives it.</source>
        <translation>输入文本并按“分类”，查看此运行的最佳检查点把它归入哪一类。</translation>
    </message>
</context>
<context>
    <name>ts::ui::RunCharts</name>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>forked from run %1</source>
        <translation>从运行 %1 分叉</translation>
    </message>
    <message>
        <source>resumed from run %1</source>
        <translation>从运行 %1 恢复</translation>
    </message>
    <message>
        <source>Cannot read the points: %1</source>
        <translation>无法读取数据点：%1</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
</context>
<context>
    <name>ts::ui::RunComparison</name>
    <message>
        <source>Differences only</source>
        <translation>仅显示差异</translation>
    </message>
    <message>
        <source>Hide the rows where every run has the same value</source>
        <translation>隐藏所有运行取值相同的行</translation>
    </message>
    <message>
        <source>Copy as CSV</source>
        <translation>复制为 CSV</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Differences</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Draw each group of runs sharing this setting as its mean with a ±1 standard deviation band</source>
        <translation>将此设置相同的每组运行画成均值曲线，并带 ±1 标准差区间</translation>
    </message>
    <message>
        <source>Group by:</source>
        <translation>分组依据：</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（不分组）</translation>
    </message>
    <message>
        <source>%1 = %2 (n = %3)</source>
        <translation>%1 = %2（n = %3）</translation>
    </message>
    <message>
        <source>Trade-offs</source>
        <translation>权衡</translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation>平行坐标</translation>
    </message>
    <message>
        <source>Two models</source>
        <translation>两个模型</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>%1: the runs differ on it</source>
        <translation>%1：各运行在此设置上不同</translation>
    </message>
    <message>
        <source>%1: every run has the same value, so there is nothing to group</source>
        <translation>%1：所有运行的取值相同，无法据此分组</translation>
    </message>
</context>
<context>
    <name>ts::ui::RunDetails</name>
    <message>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <source>Started:</source>
        <translation>开始时间：</translation>
    </message>
    <message>
        <source>Ended:</source>
        <translation>结束时间：</translation>
    </message>
    <message>
        <source>Duration:</source>
        <translation>时长：</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Parent:</source>
        <translation>父运行：</translation>
    </message>
    <message>
        <source>Message:</source>
        <translation>消息：</translation>
    </message>
    <message>
        <source>What was tried in this run, and what came of it</source>
        <translation>这次运行尝试了什么，结果如何</translation>
    </message>
    <message>
        <source>Save Notes</source>
        <translation>保存备注</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择运行</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>resumed from run %1</source>
        <translation>从运行 %1 恢复</translation>
    </message>
    <message>
        <source>forked from run %1</source>
        <translation>从运行 %1 分叉</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>%1 (best)</source>
        <translation>%1（最佳）</translation>
    </message>
    <message>
        <source>%1
SHA-256: %2</source>
        <translation>%1
SHA-256：%2</translation>
    </message>
    <message>
        <source>%1 (paused %2)</source>
        <translation>%1（暂停 %2）</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>结果：</translation>
    </message>
    <message>
        <source>Store the notes with the run (Ctrl+S in the editor)</source>
        <translation>将备注与运行一起保存（在编辑器中按 Ctrl+S）</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Predict</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
</context>
<context>
    <name>ts::ui::RunOverview</name>
    <message>
        <source>Final metrics</source>
        <translation>最终指标</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Lineage</source>
        <translation>谱系</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>How</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Runs resumed or forked from one another. Activate a row to show that run.</source>
        <translation>彼此恢复或分叉而来的运行。激活某一行即可显示该运行。</translation>
    </message>
    <message>
        <source>Experiment:</source>
        <translation>实验：</translation>
    </message>
    <message>
        <source>cannot be read (%1)</source>
        <translation>无法读取（%1）</translation>
    </message>
    <message>
        <source>%1, learning rate %2</source>
        <translation>%1，学习率 %2</translation>
    </message>
    <message>
        <source>, weight decay %1</source>
        <translation>，权重衰减 %1</translation>
    </message>
    <message>
        <source>, momentum %1</source>
        <translation>，动量 %1</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation>学习率调度：</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>%1 × %2 accumulated</source>
        <translation>%1 × %2（梯度累积）</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Gradient clipping:</source>
        <translation>梯度裁剪：</translation>
    </message>
    <message>
        <source>norm %1</source>
        <translation>范数 %1</translation>
    </message>
    <message>
        <source>Early stopping:</source>
        <translation>提前停止：</translation>
    </message>
    <message>
        <source>%1, patience %2</source>
        <translation>%1，耐心值 %2</translation>
    </message>
    <message>
        <source>%1, %2 parameters, %3 MFLOPs a sample</source>
        <translation>%1，%2 个参数，每个样本 %3 MFLOPs</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 (best %2 at step %3)</source>
        <translation>%1（最佳 %2，第 %3 步）</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>forked</source>
        <translation>分叉</translation>
    </message>
    <message>
        <source>Metrics appear after the first epoch.</source>
        <translation>第一轮结束后显示指标。</translation>
    </message>
    <message>
        <source>, warm-up of %1 steps</source>
        <translation>，预热 %1 步</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
</context>
<context>
    <name>ts::ui::RunsModel</name>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Crashed</source>
        <translation>已崩溃</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>acc %1 %</source>
        <translation>准确率 %1 %</translation>
    </message>
    <message>
        <source>loss %1</source>
        <translation>损失 %1</translation>
    </message>
    <message>
        <source>%1: best %2 at step %3</source>
        <translation>%1：最佳值 %2，位于第 %3 步</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>test %1</source>
        <translation>测试 %1</translation>
    </message>
    <message>
        <source>val %1</source>
        <translation>验证 %1</translation>
    </message>
    <message>
        <source>%1: final %2 at step %3 (no validation split)</source>
        <translation>%1：最终 %2，第 %3 步（没有验证集）</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>bits/char %1</source>
        <translation>比特/字符 %1</translation>
    </message>
</context>
<context>
    <name>ts::ui::RunsPage</name>
    <message>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Re&amp;sume from Last Checkpoint</source>
        <translation>从最后一个检查点恢复(&amp;S)</translation>
    </message>
    <message>
        <source>Continue this run from its last checkpoint, on the Train page</source>
        <translation>在训练页面中从最后一个检查点继续这次运行</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>Cannot read the runs: %1</source>
        <translation>无法读取运行记录：%1</translation>
    </message>
    <message>
        <source>No runs yet. Runs appear here as soon as one starts, from the Train page or from trainstudio-cli, in %1.</source>
        <translation>还没有运行记录。无论从训练页面还是 trainstudio-cli 开始运行，它都会立即出现在这里（工作区：%1）。</translation>
    </message>
    <message>
        <source>Delete Run</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <source>Delete the run “%1”?</source>
        <translation>删除运行“%1”？</translation>
    </message>
    <message>
        <source>Its metrics, log and notes are deleted, and so are its checkpoints (%1 on record) and their folder %2. This cannot be undone.</source>
        <translation>它的指标、日志和备注都会被删除，检查点（记录中共 %1 个）及其文件夹 %2 也会一并删除。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete Run and Checkpoints</source>
        <translation>删除运行和检查点</translation>
    </message>
    <message>
        <source>Cannot resume run %1: %2</source>
        <translation>无法恢复运行 %1：%2</translation>
    </message>
    <message>
        <source>Cannot change the runs: %1</source>
        <translation>无法修改运行记录：%1</translation>
    </message>
    <message>
        <source>A run needs a name.</source>
        <translation>运行必须有名称。</translation>
    </message>
    <message>
        <source>Cannot rename run %1: %2</source>
        <translation>无法重命名运行 %1：%2</translation>
    </message>
    <message>
        <source>Cannot save the notes of run %1: %2</source>
        <translation>无法保存运行 %1 的备注：%2</translation>
    </message>
    <message>
        <source>Cannot delete run %1: %2</source>
        <translation>无法删除运行 %1：%2</translation>
    </message>
    <message>
        <source>&amp;Evaluate</source>
        <translation>评估(&amp;E)</translation>
    </message>
    <message>
        <source>Evaluate the run&apos;s best checkpoint (or its last) on the test split (or the validation split without one) and keep every prediction; it runs in the job queue</source>
        <translation>在测试集（没有测试集时用验证集）上评估该运行的最佳检查点（没有时用最后一个），并保存每个预测；它在任务队列中运行</translation>
    </message>
    <message>
        <source>Cannot evaluate run %1: it saved no checkpoint.</source>
        <translation>无法评估运行 %1：它没有保存检查点。</translation>
    </message>
    <message>
        <source>Cannot evaluate run %1: %2</source>
        <translation>无法评估运行 %1：%2</translation>
    </message>
    <message>
        <source>Filter runs</source>
        <translation>筛选运行</translation>
    </message>
    <message>
        <source>Show the runs whose ID, name, experiment, status, device or a tag contains this text</source>
        <translation>显示 ID、名称、实验、状态、设备或某个标签包含此文本的运行</translation>
    </message>
    <message>
        <source>Select Runs of the Same E&amp;xperiment</source>
        <translation>选择同一实验的运行(&amp;X)</translation>
    </message>
    <message>
        <source>Select every listed run of this run&apos;s experiment, to compare the whole sweep</source>
        <translation>选择列表中与此运行同一实验的所有运行，以比较整个扫描</translation>
    </message>
    <message>
        <source>Select Runs Sharing a &amp;Tag</source>
        <translation>选择共享标签的运行(&amp;T)</translation>
    </message>
    <message>
        <source>Select every listed run that has one of this run&apos;s tags, to compare them</source>
        <translation>选择列表中带有此运行任一标签的所有运行，以进行比较</translation>
    </message>
    <message>
        <source>Export as &amp;ONNX…</source>
        <translation>导出为 &amp;ONNX…</translation>
    </message>
    <message>
        <source>Write a checkpoint of this run as an ONNX model (dynamic batch, class names and normalisation in its metadata) for ONNX Runtime and other tools</source>
        <translation>将此运行的检查点写为 ONNX 模型（动态批次，元数据中含类别名和归一化参数），供 ONNX Runtime 等工具使用</translation>
    </message>
    <message>
        <source>Cannot export run %1: it saved no checkpoint.</source>
        <translation>无法导出运行 %1：它没有保存任何检查点。</translation>
    </message>
    <message>
        <source>Cannot export run %1: %2</source>
        <translation>无法导出运行 %1：%2</translation>
    </message>
</context>
<context>
    <name>ts::ui::SampleDetail</name>
    <message>
        <source>Sample %1 is not in this split (it has %2 samples).</source>
        <translation>样本 %1 不在此划分中（该划分有 %2 个样本）。</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>Std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>No sample selected</source>
        <translation>未选择样本</translation>
    </message>
    <message>
        <source>Click a sample in the grid to see it here at full size, with its pixel statistics.</source>
        <translation>在网格中点击一个样本，即可在此以原始尺寸查看它及其像素统计。</translation>
    </message>
    <message>
        <source>Label: %1 (class %2)</source>
        <translation>标签：%1（类别 %2）</translation>
    </message>
    <message>
        <source>Shape: %1</source>
        <translation>形状：%1</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>Decoding…</source>
        <translation>正在解码…</translation>
    </message>
    <message>
        <source>This sample cannot be read: %1</source>
        <translation>无法读取此样本：%1</translation>
    </message>
    <message>
        <source>all values</source>
        <translation>全部数值</translation>
    </message>
    <message>
        <source>gray</source>
        <translation>灰度</translation>
    </message>
    <message>
        <source>red</source>
        <translation>红</translation>
    </message>
    <message>
        <source>green</source>
        <translation>绿</translation>
    </message>
    <message>
        <source>blue</source>
        <translation>蓝</translation>
    </message>
    <message>
        <source>… %1 more</source>
        <translation>…… 还有 %1 个</translation>
    </message>
</context>
<context>
    <name>ts::ui::SampleGallery</name>
    <message>
        <source>Run %1 has no evaluation of the %2 split to show samples of; evaluate it first.</source>
        <translation>运行 %1 没有 %2 划分的评估，无法显示样本；请先评估。</translation>
    </message>
    <message>
        <source>Opening the dataset to show the images…</source>
        <translation>正在打开数据集以显示图像…</translation>
    </message>
    <message>
        <source>The images cannot be shown: %1</source>
        <translation>无法显示图像：%1</translation>
    </message>
    <message>
        <source>The samples are not images (shape %1); only their captions are shown.</source>
        <translation>这些样本不是图像（形状 %1）；只显示其说明文字。</translation>
    </message>
</context>
<context>
    <name>ts::ui::SampleGridModel</name>
    <message>
        <source>(excluded)</source>
        <translation>（已排除）</translation>
    </message>
    <message>
        <source>Sample %1 of the %2 files (%3 split)
Class: %4</source>
        <translation>%2 文件中的样本 %1（%3 划分）
类别：%4</translation>
    </message>
    <message>
        <source>The model predicts %1 (%2 %)</source>
        <translation>模型预测为 %1（%2 %）</translation>
    </message>
    <message>
        <source>Excluded from training</source>
        <translation>训练时排除</translation>
    </message>
    <message>
        <source>Relabelled to %1</source>
        <translation>已重新标注为 %1</translation>
    </message>
    <message>
        <source>(test)</source>
        <translation>（测试）</translation>
    </message>
    <message>
        <source>From: %1</source>
        <translation>来源：%1</translation>
    </message>
</context>
<context>
    <name>ts::ui::SchedulePreviewChart</name>
    <message>
        <source>The past runs could not be read: %1</source>
        <translation>无法读取以往的运行：%1</translation>
    </message>
    <message>
        <source>No experiment yet.</source>
        <translation>尚无实验。</translation>
    </message>
    <message>
        <source>planned</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Learning rate at every optimizer step</source>
        <translation>每个优化器步的学习率</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>Show logged rates of past runs</source>
        <translation>显示以往运行记录的学习率</translation>
    </message>
    <message>
        <source>Draw the learning rates that earlier runs of this experiment logged, read from the workspace.</source>
        <translation>绘制此实验以往运行实际记录的学习率（从工作区读取）。</translation>
    </message>
    <message>
        <source>Upper bound: the plateau schedule lowers the rate when validation stops improving.</source>
        <translation>上限：plateau 调度会在验证指标不再改善时降低学习率。</translation>
    </message>
    <message>
        <source>Cannot count the training samples: %1</source>
        <translation>无法统计训练样本数：%1</translation>
    </message>
    <message>
        <source>Counting the training samples…</source>
        <translation>正在统计训练样本数…</translation>
    </message>
    <message>
        <source>Cannot plan the run: %1</source>
        <translation>无法规划本次运行：%1</translation>
    </message>
    <message>
        <source>The run has no steps.</source>
        <translation>本次运行没有任何步。</translation>
    </message>
    <message>
        <source>Steps: %1 in all, %2 per epoch · epochs: %3 · batch: %4 · training samples: %5</source>
        <translation>步数：共 %1 步，每轮 %2 步 · 轮数：%3 · 批大小：%4 · 训练样本：%5</translation>
    </message>
    <message>
        <source>Steps: %1 in all, %2 per epoch · epochs: %3 · batch: %4 × %5 accumulated · training samples: %6</source>
        <translation>步数：共 %1 步，每轮 %2 步 · 轮数：%3 · 批大小：%4 × 累积 %5 次 · 训练样本：%6</translation>
    </message>
    <message>
        <source>Step %1 · epoch %2 (step %3 of %4)</source>
        <translation>第 %1 步 · 第 %2 轮（本轮第 %3 步，共 %4 步）</translation>
    </message>
</context>
<context>
    <name>ts::ui::SplitPreview</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>The validation fraction &quot;%1&quot; is not a number: write a share of the training data such as 0.1.</source>
        <translation>验证比例“%1”不是数字：请写训练数据的一个比例，例如 0.1。</translation>
    </message>
    <message>
        <source>The validation fraction must be at least 0 and below 1 (0 keeps no validation split), not %1.</source>
        <translation>验证比例必须不小于 0 且小于 1（0 表示不保留验证划分），而不是 %1。</translation>
    </message>
    <message>
        <source>The split seed must be a whole number from 0 to 18446744073709551615, not &quot;%1&quot;.</source>
        <translation>划分种子必须是 0 到 18446744073709551615 之间的整数，而不是“%1”。</translation>
    </message>
    <message>
        <source>Reading the groups of column %1…</source>
        <translation>正在读取列 %1 的分组…</translation>
    </message>
    <message>
        <source>The group column cannot be used: %1</source>
        <translation>无法使用该分组列：%1</translation>
    </message>
    <message>
        <source>Open a dataset to see how it splits.</source>
        <translation>打开一个数据集以查看它如何划分。</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>%1 of the %2 training samples go to validation (%3%).</source>
        <translation>%2 个训练样本中有 %1 个划入验证集（%3%）。</translation>
    </message>
    <message>
        <source>Rows of one group (%1 groups in column %2) stay on one side.</source>
        <translation>同一组的行（列 %2 中共 %1 组）留在同一侧。</translation>
    </message>
    <message>
        <source>Validation fraction:</source>
        <translation>验证比例：</translation>
    </message>
    <message>
        <source>The share of the training data held out for validation, at least 0 and below 1 (dataset.validation_fraction).</source>
        <translation>留作验证的训练数据比例，不小于 0 且小于 1（dataset.validation_fraction）。</translation>
    </message>
    <message>
        <source>Split seed:</source>
        <translation>划分种子：</translation>
    </message>
    <message>
        <source>Which samples go to validation; the same seed always gives the same split (dataset.split_seed).</source>
        <translation>决定哪些样本进入验证集；相同的种子总是得到相同的划分（dataset.split_seed）。</translation>
    </message>
    <message>
        <source>Group column:</source>
        <translation>分组列：</translation>
    </message>
    <message>
        <source>Rows sharing a value of this column (a patient, a user, a session) all go to the same split, so validation never sees a group that training saw (dataset.group_column).</source>
        <translation>这一列取值相同的行（同一病人、用户或会话）都进入同一个划分，因此验证集不会看到训练见过的组（dataset.group_column）。</translation>
    </message>
</context>
<context>
    <name>ts::ui::StatisticsHistogram</name>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>%1, %2: %3 samples (%4%)
Click to show them</source>
        <translation>%1，%2：%3 个样本（%4%）
点击以显示它们</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>%1, %2: %3 lines (%4%)</source>
        <translation>%1，%2：%3 行（%4%）</translation>
    </message>
</context>
<context>
    <name>ts::ui::StatisticsPanel</name>
    <message>
        <source>Computing statistics…</source>
        <translation>正在计算统计量…</translation>
    </message>
    <message>
        <source>No dataset open</source>
        <translation>没有打开数据集</translation>
    </message>
    <message>
        <source>Class distribution of %1</source>
        <translation>%1 的类别分布</translation>
    </message>
    <message>
        <source>%1: %2 samples</source>
        <translation>%1：%2 个样本</translation>
    </message>
    <message>
        <source>%1: %2 samples; class %3 has none (imbalance ratio infinite)</source>
        <translation>%1：%2 个样本；类别 %3 没有样本（不平衡比为无穷大）</translation>
    </message>
    <message>
        <source>%1: %2 samples; imbalance ratio %3 (largest class %4: %5, smallest %6: %7)</source>
        <translation>%1：%2 个样本；不平衡比 %3（最大类别 %4：%5，最小类别 %6：%7）</translation>
    </message>
    <message>
        <source>Per-channel mean and standard deviation: computing…</source>
        <translation>各通道的均值和标准差：正在计算…</translation>
    </message>
    <message>
        <source>No statistics: %1</source>
        <translation>没有统计量：%1</translation>
    </message>
    <message>
        <source>Per-feature mean and standard deviation of the training split (%1 samples), as normalize_from_statistics uses them</source>
        <translation>训练划分（%1 个样本）各特征的均值和标准差，即 normalize_from_statistics 使用的值</translation>
    </message>
    <message>
        <source>Per-channel mean and standard deviation of the training split (%1 samples), as normalize_from_statistics uses them</source>
        <translation>训练划分（%1 个样本）各通道的均值和标准差，即 normalize_from_statistics 使用的值</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>特征</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>通道</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>Standard deviation</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Red</source>
        <translation>红</translation>
    </message>
    <message>
        <source>Green</source>
        <translation>绿</translation>
    </message>
    <message>
        <source>Blue</source>
        <translation>蓝</translation>
    </message>
    <message>
        <source>Gray</source>
        <translation>灰度</translation>
    </message>
    <message>
        <source>Original image sizes: reading…</source>
        <translation>原始图像尺寸：正在读取…</translation>
    </message>
    <message>
        <source>Original image sizes of all %1 files:</source>
        <translation>全部 %1 个文件的原始图像尺寸：</translation>
    </message>
    <message>
        <source>Original image sizes of %1 of the %2 files, evenly spread:</source>
        <translation>均匀抽取的 %2 个文件中 %1 个的原始图像尺寸：</translation>
    </message>
    <message>
        <source>%1×%2: %3</source>
        <translation>%1×%2：%3</translation>
    </message>
    <message>
        <source>%1 other sizes</source>
        <translation>其他 %1 种尺寸</translation>
    </message>
    <message>
        <source>Widths %1 to %2, heights %3 to %4 pixels; an image of another size becomes %5 for training (dataset.resize: %6).</source>
        <translation>宽度 %1 到 %2 像素，高度 %3 到 %4 像素；尺寸不同的图像在训练时变为 %5（dataset.resize: %6）。</translation>
    </message>
    <message>
        <source>%1 files are not readable images (PNG, JPEG, WebP, TIFF, BMP or GIF).</source>
        <translation>%1 个文件不是可读取的图像（PNG、JPEG、WebP、TIFF、BMP 或 GIF）。</translation>
    </message>
</context>
<context>
    <name>ts::ui::SweepPanel</name>
    <message>
        <source>No sweep. Write a sweep: section here, or insert the example.</source>
        <translation>没有扫描。请在此编写 sweep: 段，或插入示例。</translation>
    </message>
    <message>
        <source>Insert Example</source>
        <translation>插入示例</translation>
    </message>
    <message>
        <source>A learning rate by weight decay grid with successive halving.</source>
        <translation>学习率 × 权重衰减的网格，使用逐次减半。</translation>
    </message>
    <message>
        <source>Run Sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Queue the sweep as one job: each trial becomes a run of the workspace, tagged with the sweep. Stopped, it continues where it was when run again.</source>
        <translation>将扫描作为一个作业排队：每个试验成为工作区中的一次运行，并带有该扫描的标签。停止后再次运行，会从停下的地方继续。</translation>
    </message>
    <message>
        <source>line %1, column %2: %3</source>
        <translation>第 %1 行第 %2 列：%3</translation>
    </message>
    <message>
        <source>No sweep: the experiment trains one run.</source>
        <translation>没有扫描：该实验只训练一次运行。</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s), ranked by %1; successive halving keeps the best 1/%2 at epochs %3.</source>
        <translation>
            <numerusform>%n 个试验，按 %1 排名；逐次减半在第 %3 轮保留最好的 1/%2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s), ranked by %1, each trained %2 epochs.</source>
        <translation>
            <numerusform>%n 个试验，按 %1 排名，每个训练 %2 轮。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: sweep</source>
        <translation>%1：扫描</translation>
    </message>
</context>
<context>
    <name>ts::ui::TableColumnsModel</name>
    <message>
        <source>integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>number</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>feature</source>
        <translation>特征</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>未使用</translation>
    </message>
    <message>
        <source>%1 equal bins from %2 to %3</source>
        <translation>从 %2 到 %3 的 %1 个等宽区间</translation>
    </message>
    <message>
        <source>Counts of the most frequent values (%1 distinct)</source>
        <translation>最常见取值的计数（共 %1 个不同取值）</translation>
    </message>
    <message>
        <source>Checked columns are the model&apos;s input features</source>
        <translation>勾选的列是模型的输入特征</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>用途</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>分布</translation>
    </message>
</context>
<context>
    <name>ts::ui::TableRowsModel</name>
    <message>
        <source>Line %1 has %2 fields, the header %3</source>
        <translation>第 %1 行有 %2 个字段，表头有 %3 个</translation>
    </message>
</context>
<context>
    <name>ts::ui::TextPanels</name>
    <message>
        <source>Click a column&apos;s header to sort by it</source>
        <translation>点击列标题按该列排序</translation>
    </message>
    <message>
        <source>No text dataset open</source>
        <translation>未打开文本数据集</translation>
    </message>
    <message>
        <source>Lengths of the text&apos;s lines in tokens</source>
        <translation>文本各行的长度（词元数）</translation>
    </message>
    <message>
        <source>Lengths of the texts in tokens</source>
        <translation>各条文本的长度（词元数）</translation>
    </message>
    <message>
        <source>Counting tokens…</source>
        <translation>正在统计词元…</translation>
    </message>
    <message>
        <source>The tokens cannot be counted: %1</source>
        <translation>无法统计词元：%1</translation>
    </message>
    <message>
        <source>&gt; %1</source>
        <translation>&gt; %1</translation>
    </message>
    <message>
        <source>context %1</source>
        <translation>上下文 %1</translation>
    </message>
    <message>
        <source>%1: %2 lines of %3 to %4 tokens (median %5); %6 (%7%) are longer than a block.</source>
        <translation>%1：%2 行，每行 %3 到 %4 个词元（中位数 %5）；%6 行（%7%）比一个块长。</translation>
    </message>
    <message>
        <source>%1: %2 texts of %3 to %4 tokens (median %5); %6 (%7%) are longer than the context and cut.</source>
        <translation>%1：%2 条文本，每条 %3 到 %4 个词元（中位数 %5）；%6 条（%7%）超过上下文长度，被截断。</translation>
    </message>
    <message>
        <source>Every block has %1 tokens (dataset.context): the text&apos;s %2 tokens make %3 blocks, each read whole; the histogram shows how long its lines are.</source>
        <translation>每个块都有 %1 个词元（dataset.context）：文本的 %2 个词元组成 %3 个块，每块整块读取；直方图显示文本各行的长度。</translation>
    </message>
    <message>
        <source>Every text is padded with token 0 or cut to %1 tokens (dataset.context).</source>
        <translation>每条文本都用词元 0 填充或截断到 %1 个词元（dataset.context）。</translation>
    </message>
    <message>
        <source>Click a bar to list its texts.</source>
        <translation>点击柱子可列出其中的文本。</translation>
    </message>
    <message>
        <source>The training split has %1 tokens; %2 of the %3 tokens occur in it, and the %4 most frequent make up 90% of it.</source>
        <translation>训练划分共有 %1 个词元；%3 个词元中有 %2 个在其中出现，最常见的 %4 个占其 90%。</translation>
    </message>
    <message>
        <source>Of the validation split&apos;s %1 tokens, %2 (%3%) never occur in training.</source>
        <translation>验证划分的 %1 个词元中，有 %2 个（%3%）从未在训练中出现。</translation>
    </message>
    <message>
        <source>%1 texts longer than %2 tokens</source>
        <translation>%1 中长于 %2 个词元的文本</translation>
    </message>
    <message>
        <source>%1 texts of %2 to %3 tokens</source>
        <translation>%1 中 %2 到 %3 个词元的文本</translation>
    </message>
    <message>
        <source>%1 tokens in the vocabulary (tokenizer: %2), and id %3 for padding.</source>
        <translation>词表中有 %1 个词元（分词器：%2），另有 id %3 用于填充。</translation>
    </message>
    <message>
        <source>%1 tokens in the vocabulary (tokenizer: %2).</source>
        <translation>词表中有 %1 个词元（分词器：%2）。</translation>
    </message>
</context>
<context>
    <name>ts::ui::TextSampleDetail</name>
    <message>
        <source>No sample selected</source>
        <translation>未选择样本</translation>
    </message>
    <message>
        <source>Click a text in the list to see its tokens: each token on its own colour, a line break as ↵, a space as ␣.</source>
        <translation>点击列表中的文本查看它的词元：每个词元有自己的底色，换行显示为 ↵，空格显示为 ␣。</translation>
    </message>
    <message>
        <source>Class: %1</source>
        <translation>类别：%1</translation>
    </message>
    <message>
        <source>From: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>%1 tokens (tokenizer: %2)</source>
        <translation>%1 个词元（分词器：%2）</translation>
    </message>
    <message>
        <source>padded with %1 more (id 0, not drawn)</source>
        <translation>另用 %1 个填充词元补齐（id 0，不显示）</translation>
    </message>
    <message>
        <source>the text has %1 more, cut off at the context and drawn pale</source>
        <translation>文本还有 %1 个词元，超出上下文被截断，以浅色显示</translation>
    </message>
    <message>
        <source>Point at a token to see its id.</source>
        <translation>把鼠标指向一个词元可查看它的 id。</translation>
    </message>
</context>
<context>
    <name>ts::ui::TextSampleModel</name>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>划分</translation>
    </message>
    <message>
        <source>Starts at</source>
        <translation>起始位置</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
</context>
<context>
    <name>ts::ui::TextSamplesBox</name>
    <message>
        <source>Samples</source>
        <translation>样例</translation>
    </message>
    <message>
        <source>What the model writes after each epoch from the same prompt (highlighted) with the same seed: only the model changes from one to the next</source>
        <translation>每轮结束后模型从同一提示（高亮）、用同一种子写出的文字：前后之间只有模型在变</translation>
    </message>
    <message>
        <source>epoch %1:</source>
        <translation>第 %1 轮：</translation>
    </message>
</context>
<context>
    <name>ts::ui::TokenView</name>
    <message>
        <source>Token %1 of %2: id %3, “%4”</source>
        <translation>第 %1 个词元（共 %2 个）：id %3，“%4”</translation>
    </message>
    <message>
        <source>(cut: past the context, the model does not see it)</source>
        <translation>（已截断：超出上下文，模型看不到）</translation>
    </message>
</context>
<context>
    <name>ts::ui::TradeOffChart</name>
    <message>
        <source>runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>结果：</translation>
    </message>
    <message>
        <source>against:</source>
        <translation>对比：</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
</context>
<context>
    <name>ts::ui::TrainCharts</name>
    <message>
        <source>clip</source>
        <translation>裁剪阈值</translation>
    </message>
    <message>
        <source>best (epoch %1)</source>
        <translation>最佳（第 %1 轮）</translation>
    </message>
    <message>
        <source>epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
</context>
<context>
    <name>ts::ui::TrainPage</name>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Checkpoint saved: %1</source>
        <translation>已保存检查点：%1</translation>
    </message>
    <message>
        <source>Starting %1 on %2</source>
        <translation>正在启动 %1（设备：%2）</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Starting: loading the dataset…</source>
        <translation>正在启动：加载数据集…</translation>
    </message>
    <message>
        <source>Epoch %1/%2 · step %3/%4 · ETA %5 · %6 · memory %7</source>
        <translation>第 %1/%2 轮 · 第 %3/%4 步 · 预计剩余 %5 · %6 · 内存 %7</translation>
    </message>
    <message>
        <source>Paused · %1</source>
        <translation>已暂停 · %1</translation>
    </message>
    <message>
        <source>Stopping · %1</source>
        <translation>正在停止 · %1</translation>
    </message>
    <message numerus="yes">
        <source>Run %1 on %2: %3, %n step(s)</source>
        <translation>
            <numerusform>运行 %1，设备 %2：%3，共 %n 步</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Training on %1: %2, %n step(s)</source>
        <translation>
            <numerusform>在 %1 上训练：%2，共 %n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>Epoch %1 done in %2 s: %3</source>
        <translation>第 %1 轮完成，用时 %2 秒：%3</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>已完成：%1</translation>
    </message>
    <message>
        <source>Stopped early: %1</source>
        <translation>已提前停止：%1</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>已停止：%1</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>Start training the chosen experiment (Ctrl+R)</source>
        <translation>开始训练所选实验（Ctrl+R）</translation>
    </message>
    <message>
        <source>Pause or resume after the current step (Ctrl+P)</source>
        <translation>在当前步之后暂停或继续（Ctrl+P）</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Stop after the current step; the run is kept (Ctrl+. or Shift+F5)</source>
        <translation>在当前步之后停止；运行记录会保留（Ctrl+. 或 Shift+F5）</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>恒定</translation>
    </message>
    <message>
        <source>Step decay</source>
        <translation>阶梯衰减</translation>
    </message>
    <message>
        <source>Multi-step decay</source>
        <translation>多阶梯衰减</translation>
    </message>
    <message>
        <source>Exponential decay</source>
        <translation>指数衰减</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>Cosine with restarts</source>
        <translation>带重启的余弦</translation>
    </message>
    <message>
        <source>One-cycle</source>
        <translation>单周期（One-cycle）</translation>
    </message>
    <message>
        <source>Reduce on plateau</source>
        <translation>平台期降低</translation>
    </message>
    <message>
        <source>Experiment:</source>
        <translation>实验：</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation>学习率调度：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPU %1: %2 (%3)</source>
        <translation>GPU %1：%2（%3）</translation>
    </message>
    <message>
        <source>Automatic uses the first GPU when the CUDA backend can run it, else the CPU.</source>
        <translation>自动：CUDA 后端可用时使用第一块 GPU，否则使用 CPU。</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Resuming run %1 on %2</source>
        <translation>正在 %2 上恢复运行 %1</translation>
    </message>
    <message>
        <source>fp32 (exact)</source>
        <translation>fp32（精确）</translation>
    </message>
    <message>
        <source>TF32 matrix products</source>
        <translation>TF32 矩阵乘法</translation>
    </message>
    <message>
        <source>bf16 mixed precision</source>
        <translation>bf16 混合精度</translation>
    </message>
    <message>
        <source>fp16 mixed precision, loss scaling</source>
        <translation>fp16 混合精度，损失缩放</translation>
    </message>
    <message>
        <source>The precision of matrix products and convolutions; weights, activations and gradients stay fp32. Tensor cores make it fast on a GPU; the CPU emulates it (same numbers, slower).</source>
        <translation>矩阵乘法与卷积的计算精度；权重、激活值和梯度仍为 fp32。在 GPU 上由 Tensor Core 加速；CPU 会模拟它（数值相同，速度较慢）。</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>内存：</translation>
    </message>
    <message>
        <source>%1 planned: activations %2, weights with gradients and optimizer state %3</source>
        <translation>计划 %1：激活值 %2，权重连同梯度与优化器状态 %3</translation>
    </message>
    <message>
        <source>not known: %1</source>
        <translation>未知：%1</translation>
    </message>
    <message>
        <source>Queued %1 as job %2: it trains when the jobs before it have ended.</source>
        <translation>已将 %1 加入队列，任务 %2：前面的任务结束后开始训练。</translation>
    </message>
    <message>
        <source>Queued the resumption of run %1 as job %2.</source>
        <translation>已将运行 %1 的继续训练加入队列，任务 %2。</translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation>排队(&amp;Q)</translation>
    </message>
    <message>
        <source>Queue the experiment with these settings: it trains when the jobs before it have ended (Ctrl+Shift+R)</source>
        <translation>以当前设置将实验加入队列：前面的任务结束后开始训练 (Ctrl+Shift+R)</translation>
    </message>
    <message>
        <source>run %1 with learning rate ×0.1</source>
        <translation>运行 %1（0.1 倍学习率）</translation>
    </message>
    <message>
        <source>Forking run %1 from its last checkpoint with the learning rate ×0.1.</source>
        <translation>从运行 %1 的最后一个检查点分叉，学习率乘以 0.1。</translation>
    </message>
    <message>
        <source>Run %1 has no checkpoint: training its experiment again with the learning rate ×0.1.</source>
        <translation>运行 %1 没有检查点：以 0.1 倍学习率重新训练它的实验。</translation>
    </message>
    <message>
        <source>Cannot lower the learning rate of run %1: %2</source>
        <translation>无法降低运行 %1 的学习率：%2</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>CPU threads:</source>
        <translation>CPU 线程：</translation>
    </message>
    <message numerus="yes">
        <source>Stopping the run on %n process(es): each finishes its step and the run saves a checkpoint.</source>
        <translation>
            <numerusform>正在停止 %n 个进程上的运行：每个进程完成当前步，运行会保存一个检查点。</numerusform>
        </translation>
    </message>
    <message>
        <source>Starting %1 processes: loading the dataset…</source>
        <translation>正在启动 %1 个进程：加载数据集…</translation>
    </message>
    <message>
        <source>Processes:</source>
        <translation>进程数：</translation>
    </message>
    <message>
        <source>Run %1 is training on %2 processes.</source>
        <translation>运行 %1 正在 %2 个进程上训练。</translation>
    </message>
    <message>
        <source>Data-parallel training on this many processes (mpirun): each trains its share of every batch and the gradients are averaged, so the run follows one process&apos;s. The batch size is the global one and must divide by the processes; each gets an equal share of the CPU threads.</source>
        <translation>在这么多个进程上做数据并行训练（mpirun）：每个进程训练每一批中属于自己的那一份，梯度取平均，因此结果与单进程一致。批大小是全局批大小，必须能被进程数整除；每个进程分得相同数量的 CPU 线程。</translation>
    </message>
    <message>
        <source>The batch size %1 cannot be split evenly over %2 processes: choose a multiple of %2.</source>
        <translation>批大小 %1 无法平均分给 %2 个进程：请选择 %2 的倍数。</translation>
    </message>
    <message>
        <source>Starting %1 on %2 processes on %3 (mpirun)</source>
        <translation>正在 %3 上用 %2 个进程启动 %1（mpirun）</translation>
    </message>
    <message>
        <source>Run %1 on %2 processes: %3</source>
        <translation>运行 %1（%2 个进程）：%3</translation>
    </message>
    <message>
        <source>The run on %1 processes %2</source>
        <translation>%1 个进程上的运行%2</translation>
    </message>
    <message>
        <source>Run %1 on %2 processes · epoch %3 · step %4 (also in Jobs and on the Runs page)</source>
        <translation>运行 %1（%2 个进程）· 第 %3 轮 · 第 %4 步（也可在“任务”和“运行记录”页查看）</translation>
    </message>
    <message>
        <source>Not sampled</source>
        <translation>未采样</translation>
    </message>
    <message>
        <source>Waiting for the first steps…</source>
        <translation>正在等待第一批训练步…</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Set device to %1</source>
        <translation>将设备设为 %1</translation>
    </message>
    <message>
        <source>Set CPU threads to %1</source>
        <translation>将 CPU 线程数设为 %1</translation>
    </message>
    <message>
        <source>Set epochs to %1</source>
        <translation>将轮数设为 %1</translation>
    </message>
    <message>
        <source>Set batch size to %1</source>
        <translation>将批大小设为 %1</translation>
    </message>
    <message>
        <source>Set learning rate to %1</source>
        <translation>将学习率设为 %1</translation>
    </message>
    <message>
        <source>Set optimizer to %1</source>
        <translation>将优化器设为 %1</translation>
    </message>
    <message>
        <source>Set schedule to %1</source>
        <translation>将调度设为 %1</translation>
    </message>
    <message>
        <source>Set precision to %1</source>
        <translation>将精度设为 %1</translation>
    </message>
    <message>
        <source>Not saved yet</source>
        <translation>尚未保存</translation>
    </message>
    <message>
        <source>run %1 with %2 warm-up steps</source>
        <translation>运行 %1，预热 %2 步</translation>
    </message>
    <message>
        <source>Training the experiment of run %1 again with a learning-rate warm-up of %2 steps.</source>
        <translation>以 %2 步学习率预热重新训练运行 %1 的实验。</translation>
    </message>
    <message>
        <source>Cannot add warm-up to run %1: %2</source>
        <translation>无法为运行 %1 加上预热：%2</translation>
    </message>
</context>
<context>
    <name>ts::ui::TrainingSession</name>
    <message numerus="yes">
        <source>The display fell behind: %n step(s) were not charted.</source>
        <translation>
            <numerusform>显示跟不上：有 %n 步未绘制到图表中。</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>cancelled before it began</source>
        <translation>开始前已取消</translation>
    </message>
</context>
<context>
    <name>ts::ui::VocabularyModel</name>
    <message>
        <source>Never in the training split</source>
        <translation>从未出现在训练划分中</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Count (train)</source>
        <translation>次数（训练）</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
</context>
<context>
    <name>ts::widgets::CanvasMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>概览：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ChartGrid</name>
    <message>
        <source>Show all</source>
        <translation>全部显示</translation>
    </message>
    <message>
        <source>Charts (%1 of %2)</source>
        <translation>图表（%1/%2）</translation>
    </message>
    <message>
        <source>Choose the charts to show</source>
        <translation>选择要显示的图表</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>X 轴：</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>运行时间</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>Weight of the exponential moving average drawn over the raw values (0 = raw).</source>
        <translation>叠加在原始值上的指数移动平均的权重（0 = 原始值）。</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <source>Keep the newest data in view. Zooming or panning a chart turns this off.</source>
        <translation>始终显示最新数据。缩放或平移图表会关闭此项。</translation>
    </message>
    <message>
        <source>Fit all</source>
        <translation>全部适配</translation>
    </message>
    <message>
        <source>Show every chart&apos;s whole data again. Ctrl+wheel zooms a chart, dragging pans it; right-click a chart for log scale and export.</source>
        <translation>重新显示每个图表的全部数据。Ctrl+滚轮缩放图表，拖动平移；右键单击图表可切换对数坐标和导出。</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ImageGrid</name>
    <message>
        <source>Thumbnail size (Ctrl+wheel over the images)</source>
        <translation>缩略图大小（在图像上按 Ctrl+滚轮）</translation>
    </message>
</context>
<context>
    <name>ts::widgets::LiveChart</name>
    <message>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <source>Keep the newest data in view. Zooming or panning turns this off.</source>
        <translation>始终显示最新数据。缩放或平移会关闭此项。</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Weight of the exponential moving average (0 = raw values).</source>
        <translation>指数移动平均的权重（0 = 原始值）。</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Export chart as PNG</source>
        <translation>将图表导出为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export chart as SVG</source>
        <translation>将图表导出为 SVG</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export chart data as CSV</source>
        <translation>将图表数据导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export SVG…</source>
        <translation>导出 SVG…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>X axis</source>
        <translation>X 轴</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>运行时间</translation>
    </message>
    <message>
        <source>No data yet</source>
        <translation>暂无数据</translation>
    </message>
    <message>
        <source>PNG size</source>
        <translation>PNG 尺寸</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source> dpi</source>
        <translation> dpi</translation>
    </message>
    <message>
        <source>Text and lines grow with the DPI: 96 looks as on screen, 192 twice as large.</source>
        <translation>文字和线条随 DPI 增大：96 与屏幕显示相同，192 为两倍大小。</translation>
    </message>
    <message>
        <source>Width:</source>
        <translation>宽度：</translation>
    </message>
    <message>
        <source>Height:</source>
        <translation>高度：</translation>
    </message>
    <message>
        <source>Resolution:</source>
        <translation>分辨率：</translation>
    </message>
    <message>
        <source>The image size %1 x %2 at %3 dpi is not valid.</source>
        <translation>图像尺寸 %1 x %2（%3 dpi）无效。</translation>
    </message>
    <message>
        <source>Could not encode the image.</source>
        <translation>无法编码图像。</translation>
    </message>
    <message>
        <source>Could not draw the chart as SVG.</source>
        <translation>无法将图表绘制为 SVG。</translation>
    </message>
    <message>
        <source>This build has no SVG support (qt6-svg).</source>
        <translation>此版本不支持 SVG（需要 qt6-svg）。</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>已导出</translation>
    </message>
</context>
<context>
    <name>ts::widgets::NodeCanvas</name>
    <message>
        <source>Wire %1 → %2 selected: Delete removes it</source>
        <translation>已选择连线 %1 → %2：按 Delete 删除</translation>
    </message>
    <message numerus="yes">
        <source>%n wire(s) selected: Delete removes them</source>
        <translation>
            <numerusform>已选择 %n 条连线：按 Delete 删除</numerusform>
        </translation>
    </message>
    <message>
        <source>Model graph exported from TrainStudio</source>
        <translation>从 TrainStudio 导出的模型图</translation>
    </message>
    <message>
        <source>%1 cannot take its own output</source>
        <translation>%1 不能接收自身的输出</translation>
    </message>
    <message>
        <source>Release on an input port to connect, or in empty space to add a node there</source>
        <translation>在输入端口上松开以连接，或在空白处松开以在该处添加节点</translation>
    </message>
    <message>
        <source>Release on an output port to connect, or in empty space to add a node there</source>
        <translation>在输出端口上松开以连接，或在空白处松开以在该处添加节点</translation>
    </message>
    <message>
        <source>Release to connect %1 → %2</source>
        <translation>松开以连接 %1 → %2</translation>
    </message>
    <message>
        <source>Could not encode the image.</source>
        <translation>无法编码图像。</translation>
    </message>
    <message>
        <source>Could not draw the model as SVG.</source>
        <translation>无法将模型绘制为 SVG。</translation>
    </message>
    <message>
        <source>This build has no SVG support (qt6-svg).</source>
        <translation>此版本不支持 SVG（需要 qt6-svg）。</translation>
    </message>
    <message>
        <source>ckpt</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Output: drag to an input port to connect</source>
        <translation>输出：拖到一个输入端口即可连接</translation>
    </message>
    <message>
        <source>Another input: drag an output here</source>
        <translation>再加一个输入：把一个输出拖到这里</translation>
    </message>
    <message>
        <source>checkpointed</source>
        <translation>激活检查点</translation>
    </message>
</context>
<context>
    <name>ts::widgets::RangeTestChart</name>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Loss (smoothed)</source>
        <translation>损失（平滑）</translation>
    </message>
</context>
</TS>
